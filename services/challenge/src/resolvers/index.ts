import { z } from 'zod';
import { envelope, pageRequestSchema, requireUser } from '@challenge/kit';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import {
  findVisibleChallenge,
  getChallengeBySlug,
  sidesOf,
  type ChallengeSideView,
  type ChallengeView,
} from '../domain/challenges.ts';
import type { ChallengeContext } from '../context.ts';
import { createChallenges } from '../domain/create.ts';
import { getChallengesByStatus, getDashboardChallenges } from '../domain/lists.ts';
import { cancelChallenge, updateChallenge, updateChallengeStatus } from '../domain/status.ts';
import { readerOf, toChallengeView } from '../domain/challenges.ts';
import { challengeSocialFields, socialMutation, socialQuery, socialTypes } from './social.ts';

const getChallengeBySlugArgs = z.object({ input: z.object({ slug: z.string() }) });

const createChallengeArgs = z.object({
  input: z.object({
    challengeName: z.string().max(1000),
    challengeDescription: z.string().max(5000),
    challengeReward: z.number().int(),
    tags: z.array(z.string().max(200)).max(100),
    visibility: z.string().nullish(),
    challengeType: z.string().nullish(),
    expirationTimeWeeks: z.number().int().nullish(),
    expirationDate: z.string().max(100).nullish(),
    acceptCredit: z.boolean(),
    challengedUsername: z.string().max(200).nullish(),
    challengedUserEmailsString: z.string().max(5000).nullish(),
  }),
});

const updateChallengeStatusArgs = z.object({
  input: z.object({
    slug: z.string(),
    status: z.string().max(50),
    reason: z.string().max(10_000).nullish(),
  }),
});

const cancelChallengeArgs = z.object({ slug: z.string() });

const updateChallengeArgs = z.object({
  input: z.object({
    slug: z.string(),
    challengeDescription: z.string().max(5000).nullish(),
    visibility: z.string().max(50).nullish(),
    expirationTimeWeeks: z.number().int().nullish(),
    expirationDate: z.string().max(100).nullish(),
  }),
});

const getChallengesByStatusArgs = z.object({
  input: pageRequestSchema.extend({
    status: z.string().max(50),
    challengeType: z.string().max(50).nullish(),
  }),
});

export const resolvers: GraphQLResolverMap<ChallengeContext> = {
  ...socialTypes,
  Query: {
    ...socialQuery,
    challengeRules: (_parent, _args, context) =>
      envelope(context.logger, async () => ({
        rewardMinCents: context.rules.rewardMinCents,
        rewardMaxCents: context.rules.rewardMaxCents,
      })),
    getChallengesByStatus: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const { input } = getChallengesByStatusArgs.parse(args);
        const { status, challengeType, ...page } = input;
        return getChallengesByStatus(
          context.db,
          context.user,
          { status, challengeType, page },
          context.rules.judgingWindowMs,
        );
      }),
    getDashboardChallenges: (_parent, _args, context) =>
      envelope(context.logger, async () =>
        getDashboardChallenges(context.db, requireUser(context), context.rules.judgingWindowMs),
      ),
    getChallengeBySlug: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const { input } = getChallengeBySlugArgs.parse(args);
        return {
          challenge: await getChallengeBySlug(
            context.db,
            context.user,
            input.slug,
            context.rules.judgingWindowMs,
          ),
        };
      }),
  },
  Mutation: {
    ...socialMutation,
    updateChallengeStatus: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const user = requireUser(context);
        const { input } = updateChallengeStatusArgs.parse(args);
        const changed = await updateChallengeStatus(context, user, input);
        return {
          challenge: toChallengeView(changed, readerOf(user), context.rules.judgingWindowMs),
        };
      }),
    cancelChallenge: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const user = requireUser(context);
        const { slug } = cancelChallengeArgs.parse(args);
        await cancelChallenge(context.db, user, slug);
        return {};
      }),
    updateChallenge: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const user = requireUser(context);
        const { input } = updateChallengeArgs.parse(args);
        const updated = await updateChallenge(context.db, user, input, {
          redis: context.redis,
          keyPrefix: context.redisPrefix,
          perHour: context.rules.visibilityEditsPerHour,
        });
        return {
          challenge: toChallengeView(updated, readerOf(user), context.rules.judgingWindowMs),
        };
      }),
    createChallenge: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const user = requireUser(context);
        const { input } = createChallengeArgs.parse(args);
        const created = await createChallenges(context, user, input);
        return {
          challenges: created.map((challenge) => ({
            slug: challenge.slug,
            challengeName: challenge.name,
          })),
        };
      }),
  },
  Challenge: {
    __resolveReference: (reference: { id: string }, context) =>
      findVisibleChallenge(context.db, context.user, reference.id, context.rules.judgingWindowMs),
    // Users are identity's: hand the gateway a reference and let identity resolve it.
    owner: (challenge: ChallengeView) => ({ id: challenge.ownerId }),
    challengedUser: (challenge: ChallengeView) =>
      challenge.challengedUserId ? { id: challenge.challengedUserId } : null,
    sides: (challenge: ChallengeView, _args, context) =>
      sidesOf(context.db, challenge, context.rules.judgingWindowMs),
    ...challengeSocialFields,
  },
  ChallengeSide: {
    performer: (side: ChallengeSideView) => ({ id: side.performerId }),
  },
};
