import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { ChallengeUser } from '../../challenge/graphql/fragments';
import type { Pagination } from './DiscoverChallenges';

export interface DiscoverUsersQuery {
  discoverUsers: {
    status: ResponseStatus;
    items: ChallengeUser[];
    pagination: Pagination | null;
  };
}

export interface DiscoverUsersVariables {
  input: { list: 'all' | 'following'; page: number; itemsPerPage: number };
}

/** One page of the users on the platform, newest accounts first. */
export const DiscoverUsersDocument: TypedDocumentNode<DiscoverUsersQuery, DiscoverUsersVariables> =
  gql`
    query DiscoverUsers($input: DiscoverUsersInput) {
      discoverUsers(input: $input) {
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
