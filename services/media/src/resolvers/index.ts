import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { z } from 'zod';
import { listPlayableVideos } from '../domain/videos.ts';
import type { MediaContext } from '../context.ts';

/** The owner's id the gateway fetched from the challenge subgraph (@requires); absent otherwise. */
const requiredOwner = z.object({ owner: z.object({ id: z.uuid() }) });

export const resolvers: GraphQLResolverMap<MediaContext> = {
  Challenge: {
    // media holds no challenge rows: the reference itself is all it needs.
    __resolveReference: (reference: { id: string; owner?: unknown }) => reference,
    challengeVideos: (challenge: { id: string; owner?: unknown }, _args, context) => {
      const owner = requiredOwner.safeParse(challenge);
      return listPlayableVideos(context.db, context.storage, challenge.id, {
        viewer: context.user,
        ownerId: owner.success ? owner.data.owner.id : null,
      });
    },
  },
  RecycledProof: {
    // The challenge subgraph resolves the earlier challenge under its own visibility rules.
    challenge: (proof: { challengeId: string }) => ({ id: proof.challengeId }),
  },
};
