import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export type AspectMode = 'portrait' | 'landscape' | 'square';

export interface ChallengeVideo {
  id: string;
  videoSource: string;
  /** portrait, landscape or square; anything else is shown as landscape. */
  aspectMode: string;
  downloadUrl: string | null;
  thumbnailUrl: string | null;
  /** The earlier proof this one matches (docs/adr/0038); only owner, referees and staff see it. */
  recycledFrom: {
    challengeId: string;
    challenge: { id: string; slug: string; challengeName: string } | null;
  } | null;
}

export interface ChallengeVideosQuery {
  getChallengeBySlug: {
    status: ResponseStatus;
    challenge: {
      id: string;
      challengeVideos: ChallengeVideo[];
      /** A video is uploaded but not yet processed (told to the parties and staff only). */
      videoInProcessing: boolean;
    } | null;
  } | null;
}

export interface ChallengeVideosQueryVariables {
  slug: string;
}

/**
 * The ready videos of one challenge (media's part of Challenge), apart from the detail query so
 * that polling for a video in processing, or media being away, leaves the rest of the page alone.
 */
export const ChallengeVideosDocument: TypedDocumentNode<
  ChallengeVideosQuery,
  ChallengeVideosQueryVariables
> = gql`
  query ChallengeVideos($slug: String!) {
    getChallengeBySlug(input: { slug: $slug }) {
      status {
        success
        identifier
        message
      }
      challenge {
        id
        challengeVideos {
          id
          videoSource
          aspectMode
          downloadUrl
          thumbnailUrl
          recycledFrom {
            challengeId
            challenge {
              id
              slug
              challengeName
            }
          }
        }
        videoInProcessing
      }
    }
  }
`;
