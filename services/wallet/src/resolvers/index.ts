import { envelope, requireUser } from '@challenge/kit';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { getOwnWallet } from '../domain/wallets.ts';
import type { WalletContext } from '../context.ts';

export const resolvers: GraphQLResolverMap<WalletContext> = {
  Query: {
    getWallet: (_parent, _args, context) =>
      envelope(context.logger, async () => ({
        wallet: await getOwnWallet(context.db, requireUser(context).id),
      })),
  },
};
