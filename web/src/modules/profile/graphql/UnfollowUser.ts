import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface UnfollowUserMutation {
  unfollowUser: { status: ResponseStatus } | null;
}

export interface UnfollowUserMutationVariables {
  input: { username: string };
}

export const UnfollowUserDocument: TypedDocumentNode<
  UnfollowUserMutation,
  UnfollowUserMutationVariables
> = gql`
  mutation UnfollowUser($input: FollowInput!) {
    unfollowUser(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
