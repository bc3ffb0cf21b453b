import { gql, type TypedDocumentNode } from '@apollo/client';
import type { UserPage, UserPageVariables } from '../userPage';

export interface FollowingQuery {
  getFollowing: UserPage | null;
}

export type FollowingQueryVariables = UserPageVariables;

export const FollowingDocument: TypedDocumentNode<FollowingQuery, FollowingQueryVariables> = gql`
  query Following($username: String!, $page: Int, $itemsPerPage: Int) {
    getFollowing(username: $username, page: $page, itemsPerPage: $itemsPerPage) {
      status {
        success
        identifier
        message
      }
      items {
        id
        username
        displayName
        avatar
      }
      pagination {
        currentPage
        totalPages
        totalCount
      }
    }
  }
`;
