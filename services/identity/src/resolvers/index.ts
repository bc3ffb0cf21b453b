import { envelope, requireUser, AppError } from '@challenge/kit';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { findUserById } from '../data/users.ts';
import type { IdentityContext } from '../context.ts';

export const resolvers: GraphQLResolverMap<IdentityContext> = {
  Query: {
    getCurrentUserProfile: (_parent, _args, context) =>
      envelope(context.logger, async () => {
        const viewer = requireUser(context);
        const profile = await findUserById(context.db, viewer.id);
        if (!profile) throw new AppError('authorized_user_not_found');
        return { profile };
      }),
  },
  User: {
    __resolveReference: (reference: { id: string }, context) =>
      findUserById(context.db, reference.id),
  },
};
