import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface LogoutMutation {
  logout: { status: ResponseStatus } | null;
}

export type LogoutMutationVariables = Record<string, never>;

export const LogoutDocument: TypedDocumentNode<LogoutMutation, LogoutMutationVariables> = gql`
  mutation Logout {
    logout {
      status {
        success
        identifier
        message
      }
    }
  }
`;
