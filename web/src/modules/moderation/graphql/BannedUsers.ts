import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { BanType } from './Reports';

export interface BannedUser {
  id: string;
  username: string;
  banType: string;
  bannedAt: string | null;
}

export interface BannedUsersQuery {
  paginatedListOfBannedUsers: {
    status: ResponseStatus;
    items: BannedUser[];
    pagination: { currentPage: number; totalPages: number; totalCount: number } | null;
  } | null;
}

export interface BannedUsersQueryVariables {
  type: BanType;
  page: number;
  itemsPerPage?: number;
}

/** Moderators and admins: the users banned soft or hard, most recently banned first. */
export const BannedUsersDocument: TypedDocumentNode<BannedUsersQuery, BannedUsersQueryVariables> =
  gql`
    query BannedUsers($type: String!, $page: Int!, $itemsPerPage: Int) {
      paginatedListOfBannedUsers(type: $type, page: $page, itemsPerPage: $itemsPerPage) {
        status {
          success
          identifier
          message
        }
        items {
          id
          username
          banType
          bannedAt
        }
        pagination {
          currentPage
          totalPages
          totalCount
        }
      }
    }
  `;

export interface UnbanUserMutation {
  unbanUser: { status: ResponseStatus } | null;
}

export interface UnbanUserMutationVariables {
  /** reason: why, for the audit log (1 to 800 characters). */
  input: { userId: string; reason: string };
}

/** Lifts a ban (identity; moderators cannot unban admins). */
export const UnbanUserDocument: TypedDocumentNode<UnbanUserMutation, UnbanUserMutationVariables> =
  gql`
    mutation UnbanUser($input: UnbanUserInput!) {
      unbanUser(input: $input) {
        status {
          success
          identifier
          message
        }
      }
    }
  `;
