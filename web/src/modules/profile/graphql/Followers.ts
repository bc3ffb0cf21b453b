import { gql, type TypedDocumentNode } from '@apollo/client';
import type { UserPage, UserPageVariables } from '../userPage';

export interface FollowersQuery {
  getFollowers: UserPage | null;
}

export type FollowersQueryVariables = UserPageVariables;

export const FollowersDocument: TypedDocumentNode<FollowersQuery, FollowersQueryVariables> = gql`
  query Followers($username: String!, $page: Int, $itemsPerPage: Int) {
    getFollowers(username: $username, page: $page, itemsPerPage: $itemsPerPage) {
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
