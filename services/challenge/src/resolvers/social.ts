import { GraphQLError, type GraphQLFieldResolver } from 'graphql';
import { z, ZodError } from 'zod';
import { AppError, envelope, pageRequestSchema, requireUser, statusForError } from '@challenge/kit';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import type { ChallengeContext } from '../context.ts';
import type { ChallengeView } from '../domain/challenges.ts';
import {
  addComment,
  challengeLikes,
  discover,
  likeChallenge,
  listComments,
  profileList,
  removeComment,
  shareChallenge,
  type CommentView,
} from '../domain/social.ts';

/** Respects, comments, sharing, discover and profile lists (docs/adr/0043 to 0045). */

const slugInput = z.object({ input: z.object({ slug: z.string().max(200) }) });
const addCommentArgs = z.object({
  input: z.object({ slug: z.string().max(200), text: z.string().max(10_000) }),
});
const deleteCommentArgs = z.object({ input: z.object({ id: z.string().max(100) }) });
const commentsArgs = z.object({
  input: pageRequestSchema.extend({ slug: z.string().max(200) }),
});
const shareArgs = z.object({
  input: z.object({
    slug: z.string().max(200),
    emails: z.string().max(5000).nullish(),
    locale: z.string().max(10).nullish(),
  }),
});
const discoverInput = pageRequestSchema.extend({ list: z.string().max(50).nullish() });
const discoverArgs = z.object({
  input: discoverInput.nullish().transform((input) => input ?? discoverInput.parse({})),
});

interface ProfileReference {
  id: string;
  showsPrivate?: boolean;
}

const isUuid = (value: string) => z.uuid().safeParse(value).success;

/**
 * A list field has no status envelope: bad page arguments (or a page past LIST_DEPTH_MAX) answer
 * a BAD_USER_INPUT error with the catalogue's identifier and message, not a masked generic_error.
 */
async function inputChecked<T>(context: ChallengeContext, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof AppError || error instanceof ZodError)) throw error;
    const { identifier, message } = statusForError(context.logger, error);
    throw new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', identifier } });
  }
}

/** A profile list or its count, for an entity reference (from identity, or sent directly). */
const listOf =
  (list: 'uploadedVideos' | 'runningChallenges' | 'completedChallenges' | 'respectedVideos') =>
  (profile: ProfileReference, args: unknown, context: ChallengeContext) =>
    isUuid(profile.id)
      ? inputChecked(context, () =>
          profileList(
            context.db,
            context.user,
            profile.id,
            list,
            profile.showsPrivate === true,
            pageRequestSchema.parse(args ?? {}),
            context.rules.judgingWindowMs,
          ),
        )
      : [];
const countOf =
  (
    list: 'uploadedVideos' | 'runningChallenges' | 'completedChallenges' | 'respectedVideos',
    own: boolean,
  ) =>
  async (profile: ProfileReference, _args: unknown, context: ChallengeContext) =>
    isUuid(profile.id)
      ? // The current user's counts include their private challenges (only ever their own).
        (await context.social.profileCounts(profile.id, own || profile.showsPrivate === true))[list]
      : 0;

type FieldResolvers = Record<string, GraphQLFieldResolver<unknown, ChallengeContext>>;

export const socialQuery = {
  getChallengeComments: (_parent, args, context) =>
    envelope(context.logger, async () => {
      const { input } = commentsArgs.parse(args);
      const { slug, ...page } = input;
      return listComments(context.db, context.user, { slug, page });
    }),
  discoverChallenges: (_parent, args, context) =>
    envelope(context.logger, async () => {
      const { input } = discoverArgs.parse(args);
      const { list, ...page } = input;
      return discover(
        context.db,
        context.user,
        { list: list ?? 'all', page },
        context.rules.judgingWindowMs,
      );
    }),
} satisfies FieldResolvers;

export const socialMutation = {
  likeChallenge: (_parent, args, context) =>
    envelope(context.logger, async () => {
      const user = requireUser(context);
      const { input } = slugInput.parse(args);
      const { liked, challengeLikesCount } = await likeChallenge(context.db, user, input.slug);
      return { liked, result: liked ? 'liked' : 'unliked', challengeLikesCount };
    }),
  addChallengeComment: (_parent, args, context) =>
    envelope(context.logger, async () => {
      const user = requireUser(context);
      const { input } = addCommentArgs.parse(args);
      return { comment: await addComment(context.db, user, input) };
    }),
  deleteChallengeComment: (_parent, args, context) =>
    envelope(context.logger, async () => {
      const user = requireUser(context);
      const { input } = deleteCommentArgs.parse(args);
      await removeComment(context.db, user, input.id);
      return {};
    }),
  shareChallengeLink: (_parent, args, context) =>
    envelope(context.logger, async () => {
      const user = requireUser(context);
      const { input } = shareArgs.parse(args);
      return shareChallenge(
        {
          db: context.db,
          redis: context.redis,
          publicOrigin: context.publicOrigin,
          emailsPerHour: context.rules.shareEmailsPerHour,
          keyPrefix: context.redisPrefix,
        },
        user,
        input,
      );
    }),
} satisfies FieldResolvers;

/** The types this file adds (entity references of identity's profiles among them). */
export const socialTypes: GraphQLResolverMap<ChallengeContext> = {
  ChallengeComment: {
    author: (comment: CommentView) => ({ id: comment.authorId }),
  },
  ChallengeLike: {
    user: (like: { userId: string }) => ({ id: like.userId }),
  },
  PublicProfile: {
    __resolveReference: (reference: ProfileReference) => reference,
    uploadedVideos: listOf('uploadedVideos'),
    runningChallenges: listOf('runningChallenges'),
    completedChallenges: listOf('completedChallenges'),
    respectedVideos: listOf('respectedVideos'),
    uploadedVideosCount: countOf('uploadedVideos', false),
    runningChallengesCount: countOf('runningChallenges', false),
    completedChallengesCount: countOf('completedChallenges', false),
    respectedVideosCount: countOf('respectedVideos', false),
  },
  CurrentUserProfile: {
    __resolveReference: (reference: ProfileReference) => reference,
    uploadedVideosCount: countOf('uploadedVideos', true),
    runningChallengesCount: countOf('runningChallenges', true),
    completedChallengesCount: countOf('completedChallenges', true),
    respectedVideosCount: countOf('respectedVideos', true),
  },
};

/** The social fields of Challenge, merged into its resolvers (index.ts). */
export const challengeSocialFields = {
  challengeLikesCount: (challenge: ChallengeView, _args: unknown, context: ChallengeContext) =>
    context.social.likeCount(challenge.id),
  hasLiked: (challenge: ChallengeView, _args: unknown, context: ChallengeContext) =>
    context.social.hasLiked(challenge.id),
  challengeLikes: (challenge: ChallengeView, _args: unknown, context: ChallengeContext) =>
    challengeLikes(context.db, challenge.id),
};
