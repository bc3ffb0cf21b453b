import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export interface AuditEntry {
  id: string;
  actor: { id: string; username: string } | null;
  action: string;
  targetType: string;
  targetId: string;
  reason: string | null;
  /** Whom it concerned: the target user, a reported user, a payout's payee. */
  subjectUser: { id: string; username: string } | null;
  /** The challenge it concerned (directly, by a report or a referee case). */
  challengeName: string | null;
  challengeSlug: string | null;
  /** Money actions, in cents. */
  amount: number | null;
  /** A SEPA export: how many payouts. */
  itemCount: number | null;
  createdAt: string;
}

export interface AuditEntriesQuery {
  paginatedListOfAuditEntries: {
    status: ResponseStatus;
    items: AuditEntry[];
    pagination: { currentPage: number; totalPages: number; totalCount: number } | null;
  } | null;
}

export interface AuditEntriesQueryVariables {
  page: number;
  itemsPerPage?: number;
}

/** Admins only: the staff audit log, newest first. */
export const AuditEntriesDocument: TypedDocumentNode<
  AuditEntriesQuery,
  AuditEntriesQueryVariables
> = gql`
  query AuditEntries($page: Int!, $itemsPerPage: Int) {
    paginatedListOfAuditEntries(page: $page, itemsPerPage: $itemsPerPage) {
      status {
        success
        identifier
        message
      }
      items {
        id
        actor {
          id
          username
        }
        action
        targetType
        targetId
        reason
        subjectUser {
          id
          username
        }
        challengeName
        challengeSlug
        amount
        itemCount
        createdAt
      }
      pagination {
        currentPage
        totalPages
        totalCount
      }
    }
  }
`;
