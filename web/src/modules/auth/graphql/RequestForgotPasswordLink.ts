import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface RequestForgotPasswordLinkMutation {
  requestForgotPasswordLink: { status: ResponseStatus } | null;
}

export interface RequestForgotPasswordLinkMutationVariables {
  input: { email: string };
}

export const RequestForgotPasswordLinkDocument: TypedDocumentNode<
  RequestForgotPasswordLinkMutation,
  RequestForgotPasswordLinkMutationVariables
> = gql`
  mutation RequestForgotPasswordLink($input: RequestForgotPasswordLinkInput!) {
    requestForgotPasswordLink(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
