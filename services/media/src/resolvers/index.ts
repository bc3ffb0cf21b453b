import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { envelope, requireUser } from '@challenge/kit';
import { graphqlCjs } from '../graphql-realm.ts';
import { z } from 'zod';
import { createChallengeVideo, Upload } from '../domain/uploads.ts';
import { listPlayableVideos } from '../domain/videos.ts';
import type { MediaContext } from '../context.ts';

const { GraphQLError, GraphQLScalarType } = graphqlCjs;

const notAnUpload = () =>
  new GraphQLError('Upload files with a multipart request.', {
    extensions: { code: 'BAD_USER_INPUT', identifier: 'invalid_file' },
  });

/** Only the multipart route puts Upload objects into variables; nothing else parses as one. */
const UploadScalar = new GraphQLScalarType({
  name: 'Upload',
  parseValue(value) {
    if (value instanceof Upload) return value;
    throw notAnUpload();
  },
  parseLiteral() {
    throw notAnUpload();
  },
  serialize() {
    throw new GraphQLError('Upload is an input type only.');
  },
});

const createChallengeVideoArgs = z.object({
  input: z.object({
    challengeId: z.uuid(),
    file: z.instanceof(Upload),
    ownVideoConfirmed: z.boolean(),
  }),
});

export const resolvers: GraphQLResolverMap<MediaContext> = {
  Upload: UploadScalar as unknown as GraphQLResolverMap<MediaContext>[string],
  Challenge: {
    // media holds no challenge rows: the reference itself is all it needs.
    __resolveReference: (reference: { id: string }) => ({ id: reference.id }),
    challengeVideos: (challenge: { id: string }, _args, context) =>
      listPlayableVideos(context.db, context.storage, challenge.id, context.user),
  },
  Mutation: {
    createChallengeVideo: (_parent, args, context) =>
      envelope(context.logger, async () => {
        const user = requireUser(context);
        const { input } = createChallengeVideoArgs.parse(args);
        return createChallengeVideo(context, user, {
          challengeId: input.challengeId,
          ownVideoConfirmed: input.ownVideoConfirmed,
          upload: input.file,
        });
      }),
  },
};
