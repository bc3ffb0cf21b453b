import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface FollowUserMutation {
  followUser: { status: ResponseStatus } | null;
}

export interface FollowUserMutationVariables {
  input: { username: string };
}

export const FollowUserDocument: TypedDocumentNode<
  FollowUserMutation,
  FollowUserMutationVariables
> = gql`
  mutation FollowUser($input: FollowInput!) {
    followUser(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
