import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface CancelChallengeMutation {
  cancelChallenge: { status: ResponseStatus } | null;
}

export interface CancelChallengeMutationVariables {
  slug: string;
}

/** The owner cancels a challenge nobody accepted yet; the reward goes back to their wallet. */
export const CancelChallengeDocument: TypedDocumentNode<
  CancelChallengeMutation,
  CancelChallengeMutationVariables
> = gql`
  mutation CancelChallenge($slug: String!) {
    cancelChallenge(slug: $slug) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
