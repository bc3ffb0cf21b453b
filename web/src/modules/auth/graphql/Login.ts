import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { Suspension } from '../suspension';

export interface LoginMutation {
  /** suspension: with banned_user, once the password proved who is logging in. */
  login: { status: ResponseStatus; suspension?: Suspension | null } | null;
}

export interface LoginMutationVariables {
  input: { username: string; password: string };
}

// The access token never reaches the browser: the gateway turns a successful login into the
// session cookie, so only the outcome is selected here.
export const LoginDocument: TypedDocumentNode<LoginMutation, LoginMutationVariables> = gql`
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      status {
        success
        identifier
        message
      }
      suspension {
        type
        reason
        since
      }
    }
  }
`;
