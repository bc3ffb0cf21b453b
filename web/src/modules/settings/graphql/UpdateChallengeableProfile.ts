import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface UpdateChallengeableProfileMutation {
  updateChallengeableProfile: { status: ResponseStatus } | null;
}

export interface UpdateChallengeableProfileMutationVariables {
  input: { challengeable: boolean };
}

export const UpdateChallengeableProfileDocument: TypedDocumentNode<
  UpdateChallengeableProfileMutation,
  UpdateChallengeableProfileMutationVariables
> = gql`
  mutation UpdateChallengeableProfile($input: UpdateChallengeableProfileInput!) {
    updateChallengeableProfile(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
