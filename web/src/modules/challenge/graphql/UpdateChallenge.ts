import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface UpdateChallengeMutation {
  updateChallenge: {
    status: ResponseStatus;
    challenge: {
      id: string;
      challengeDescription: string;
      visibility: string;
      expirationDate: string;
      expirationTimeWeeks: number;
    } | null;
  } | null;
}

export interface UpdateChallengeMutationVariables {
  input: {
    slug: string;
    challengeDescription?: string | null;
    visibility?: 'public' | 'private' | null;
    expirationTimeWeeks?: number | null;
  };
}

/** The owner's edits: only the fields given change; the expiration moves only while open. */
export const UpdateChallengeDocument: TypedDocumentNode<
  UpdateChallengeMutation,
  UpdateChallengeMutationVariables
> = gql`
  mutation UpdateChallenge($input: UpdateChallengeInput!) {
    updateChallenge(input: $input) {
      status {
        success
        identifier
        message
      }
      challenge {
        id
        challengeDescription
        visibility
        expirationDate
        expirationTimeWeeks
      }
    }
  }
`;
