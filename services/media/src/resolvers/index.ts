import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { listPlayableVideos } from '../domain/videos.ts';
import type { MediaContext } from '../context.ts';

export const resolvers: GraphQLResolverMap<MediaContext> = {
  Challenge: {
    // media holds no challenge rows: the reference itself is all it needs.
    __resolveReference: (reference: { id: string }) => ({ id: reference.id }),
    challengeVideos: (challenge: { id: string }, _args, context) =>
      listPlayableVideos(context.db, context.storage, challenge.id),
  },
};
