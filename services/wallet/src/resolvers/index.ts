import { envelope, requireRole, requireUser } from '@challenge/kit';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { moneyTotals, pageInput, walletHistory } from '../domain/history.ts';
import { getOwnWallet } from '../domain/wallets.ts';
import type { WalletContext } from '../context.ts';

export const resolvers: GraphQLResolverMap<WalletContext> = {
  Query: {
    getWalletTransactions: (_parent, args: { page?: number; itemsPerPage?: number }, context) =>
      envelope(context.logger, async () =>
        walletHistory(context.db, requireUser(context).id, pageInput.parse(args)),
      ).then((result) => ({ items: [], ...result })),
    totalMoneyInCirculation: (_parent, _args, context) =>
      envelope(context.logger, async () => {
        requireRole(context, 'moderator', 'admin');
        return { totals: await moneyTotals(context.db) };
      }),
    getWallet: (_parent, _args, context) =>
      envelope(context.logger, async () => ({
        wallet: await getOwnWallet(context.db, requireUser(context).id),
      })),
  },
};
