import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface LikeChallengeMutation {
  likeChallenge: {
    status: ResponseStatus;
    /** liked or unliked: the state after this toggle. */
    result: string | null;
    liked: boolean | null;
    challengeLikesCount: number | null;
  } | null;
}

export interface LikeChallengeMutationVariables {
  slug: string;
}

/** Toggles the viewer's respect of a challenge (docs/adr/0043). */
export const LikeChallengeDocument: TypedDocumentNode<
  LikeChallengeMutation,
  LikeChallengeMutationVariables
> = gql`
  mutation LikeChallenge($slug: String!) {
    likeChallenge(input: { slug: $slug }) {
      status {
        success
        identifier
        message
      }
      result
      liked
      challengeLikesCount
    }
  }
`;
