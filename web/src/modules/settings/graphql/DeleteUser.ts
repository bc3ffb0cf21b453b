import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface DeleteUserMutation {
  deleteUser: { status: ResponseStatus } | null;
}

export type DeleteUserMutationVariables = Record<string, never>;

/** Requests the deletion of the viewer's account; it takes effect one month later. */
export const DeleteUserDocument: TypedDocumentNode<
  DeleteUserMutation,
  DeleteUserMutationVariables
> = gql`
  mutation DeleteUser {
    deleteUser {
      status {
        success
        identifier
        message
      }
    }
  }
`;
