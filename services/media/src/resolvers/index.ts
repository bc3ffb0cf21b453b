import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { AppError, envelope, requireUser } from '@challenge/kit';
import { graphqlCjs } from '../graphql-realm.ts';
import { z } from 'zod';
import { updateProfileWithAvatar } from '../domain/avatars.ts';
import { createChallengeVideo, Upload } from '../domain/uploads.ts';
import { hasVideoInProcessing, listPlayableVideos } from '../domain/videos.ts';
import type { MediaContext } from '../context.ts';

const { GraphQLError, GraphQLScalarType } = graphqlCjs;

/**
 * Only the multipart route puts Upload objects into variables. Anything else (a JSON request, a
 * literal) parses as NOT_AN_UPLOAD, and the resolver answers invalid_file in its status: a throw
 * here would make the subgraph answer HTTP 400, which the gateway can only mask.
 */
const NOT_AN_UPLOAD = Symbol('not an upload');
const UploadScalar = new GraphQLScalarType<Upload | typeof NOT_AN_UPLOAD, never>({
  name: 'Upload',
  parseValue: (value) => (value instanceof Upload ? value : NOT_AN_UPLOAD),
  parseLiteral: () => NOT_AN_UPLOAD,
  serialize() {
    throw new GraphQLError('Upload is an input type only.');
  },
});

const createChallengeVideoArgs = z.object({
  input: z.object({
    challengeId: z.uuid(),
    file: z.unknown(),
    ownVideoConfirmed: z.boolean(),
  }),
});

export const resolvers: GraphQLResolverMap<MediaContext> = {
  Upload: UploadScalar as unknown as GraphQLResolverMap<MediaContext>[string],
  Challenge: {
    // Only the key is read: whatever else a representation carries decides nothing. Who may see
    // what comes from media's own projection of the challenge (issue 18).
    __resolveReference: (reference: { id: string }) => ({ id: reference.id }),
    challengeVideos: (challenge: { id: string }, _args, context) =>
      listPlayableVideos(context.db, context.storage, challenge.id, context.user),
    videoInProcessing: (challenge: { id: string }, _args, context) =>
      hasVideoInProcessing(context.db, challenge.id, context.user),
    thumbnailUrl: (challenge: { id: string }, _args, context) => context.thumbnails(challenge.id),
  },
  RecycledProof: {
    // The challenge subgraph resolves the earlier challenge under its own visibility rules.
    challenge: (proof: { challengeId: string }) => ({ id: proof.challengeId }),
  },
  Mutation: {
    createChallengeVideo: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const user = requireUser(context);
        const { input } = createChallengeVideoArgs.parse(args);
        if (!(input.file instanceof Upload)) {
          throw new AppError('invalid_file', 'Upload the file with a multipart request.');
        }
        return createChallengeVideo({ ...context, queue: context.videoQueue }, user, {
          challengeId: input.challengeId,
          ownVideoConfirmed: input.ownVideoConfirmed,
          upload: input.file,
        });
      }),
  },
};

const updateProfileArgs = z.object({
  input: z.object({
    avatar: z.unknown().optional(),
    displayName: z.unknown().optional(),
    bio: z.unknown().optional(),
    hideAvailableAmount: z.unknown().optional(),
    showPrivateChallenges: z.unknown().optional(),
  }),
});

/**
 * Only the multipart route has these (src/upload-schema.graphql): identity's updateProfile with
 * a file, handed to identity's internal API once the picture is stored (docs/adr/0049).
 */
export const uploadResolvers: GraphQLResolverMap<MediaContext> = {
  Mutation: {
    updateProfile: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const user = requireUser(context);
        const { avatar, ...fields } = updateProfileArgs.parse(args).input;
        if (avatar !== undefined && avatar !== null && !(avatar instanceof Upload)) {
          throw new AppError('invalid_file', 'Upload the avatar with a multipart request.');
        }
        const defined = Object.fromEntries(
          Object.entries(fields).filter(([, value]) => value !== undefined),
        );
        return updateProfileWithAvatar(
          { storage: context.storage, profiles: context.profiles, logger: context.logger },
          user,
          { fields: defined, avatar: avatar as Upload | null | undefined },
        );
      }),
  },
};
