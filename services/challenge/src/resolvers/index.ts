import { z } from 'zod';
import { envelope } from '@challenge/kit';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import {
  findVisibleChallenge,
  getChallengeBySlug,
  type ChallengeView,
} from '../domain/challenges.ts';
import type { ChallengeContext } from '../context.ts';

const getChallengeBySlugArgs = z.object({ input: z.object({ slug: z.string() }) });

export const resolvers: GraphQLResolverMap<ChallengeContext> = {
  Query: {
    getChallengeBySlug: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const { input } = getChallengeBySlugArgs.parse(args);
        return {
          challenge: await getChallengeBySlug(context.db, context.user?.id ?? null, input.slug),
        };
      }),
  },
  Challenge: {
    __resolveReference: (reference: { id: string }, context) =>
      findVisibleChallenge(context.db, context.user?.id ?? null, reference.id),
    // Users are identity's: hand the gateway a reference and let identity resolve it.
    owner: (challenge: ChallengeView) => ({ id: challenge.ownerId }),
    challengedUser: (challenge: ChallengeView) =>
      challenge.challengedUserId ? { id: challenge.challengedUserId } : null,
  },
};
