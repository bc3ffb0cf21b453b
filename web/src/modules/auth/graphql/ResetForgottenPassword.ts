import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface ResetForgottenPasswordMutation {
  resetForgottenPassword: { status: ResponseStatus } | null;
}

export interface ResetForgottenPasswordMutationVariables {
  input: { token: string; password: string; repeatPassword: string };
}

export const ResetForgottenPasswordDocument: TypedDocumentNode<
  ResetForgottenPasswordMutation,
  ResetForgottenPasswordMutationVariables
> = gql`
  mutation ResetForgottenPassword($input: ResetForgottenPasswordInput!) {
    resetForgottenPassword(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
