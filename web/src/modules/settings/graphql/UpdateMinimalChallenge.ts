import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface UpdateMinimalChallengeMutation {
  updateMinimalChallenge: { status: ResponseStatus } | null;
}

export interface UpdateMinimalChallengeMutationVariables {
  input: {
    minimumChallengeEnabled: boolean;
    /** Integer euro cents. */ minimumChallengeValue: number;
  };
}

export const UpdateMinimalChallengeDocument: TypedDocumentNode<
  UpdateMinimalChallengeMutation,
  UpdateMinimalChallengeMutationVariables
> = gql`
  mutation UpdateMinimalChallenge($input: UpdateMinimalChallengeInput!) {
    updateMinimalChallenge(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
