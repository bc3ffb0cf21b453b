import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

/**
 * What a movement is: top_up, escrow_hold, escrow_capture, escrow_release, payout_request,
 * payout_complete, payout_cancel, refund, chargeback or fee (the wallet SDL's list).
 */
export type WalletTransactionKind = string;

/** One movement seen from the user's wallet; the changes are signed integer euro cents. */
export interface WalletTransaction {
  id: string;
  kind: WalletTransactionKind;
  availableChange: number;
  frozenChange: number;
  challengeId: string | null;
  challenge: { id: string; slug: string; challengeName: string } | null;
  description: string | null;
  createdAt: string;
}

export interface Pagination {
  currentPage: number;
  totalPages: number;
  totalCount: number;
}

export interface WalletTransactionsQuery {
  getWalletTransactions: {
    status: ResponseStatus;
    items: WalletTransaction[];
    pagination: Pagination | null;
  } | null;
}

export interface WalletTransactionsQueryVariables {
  page: number;
  itemsPerPage: number;
}

/** The logged-in user's transaction history, newest first, a page at a time. */
export const WalletTransactionsDocument: TypedDocumentNode<
  WalletTransactionsQuery,
  WalletTransactionsQueryVariables
> = gql`
  query WalletTransactions($page: Int!, $itemsPerPage: Int!) {
    getWalletTransactions(page: $page, itemsPerPage: $itemsPerPage) {
      status {
        success
        identifier
        message
      }
      items {
        id
        kind
        availableChange
        frozenChange
        challengeId
        challenge {
          id
          slug
          challengeName
        }
        description
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
