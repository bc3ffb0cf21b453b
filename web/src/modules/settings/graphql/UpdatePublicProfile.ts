import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface UpdatePublicProfileMutation {
  updatePublicProfile: { status: ResponseStatus } | null;
}

export interface UpdatePublicProfileMutationVariables {
  input: { publicProfile: boolean };
}

export const UpdatePublicProfileDocument: TypedDocumentNode<
  UpdatePublicProfileMutation,
  UpdatePublicProfileMutationVariables
> = gql`
  mutation UpdatePublicProfile($input: UpdatePublicProfileInput!) {
    updatePublicProfile(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
