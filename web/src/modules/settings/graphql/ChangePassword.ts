import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface ChangePasswordMutation {
  changePassword: { status: ResponseStatus } | null;
}

export interface ChangePasswordMutationVariables {
  input: { currentPassword: string; password: string; repeatPassword: string };
}

export const ChangePasswordDocument: TypedDocumentNode<
  ChangePasswordMutation,
  ChangePasswordMutationVariables
> = gql`
  mutation ChangePassword($input: ChangePasswordInput!) {
    changePassword(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
