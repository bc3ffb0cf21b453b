import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

/** A user as identity shows them (resolved through the gateway). */
export interface PayoutUser {
  id: string;
  username: string;
  displayName: string | null;
}

/** A user's request to be paid out, as staff see it; amount in integer euro cents. */
export interface PayoutRequest {
  id: string;
  userId: string;
  /** The account that asked. */
  user: PayoutUser;
  /** The account holder's name, as on the bank account. */
  name: string;
  amount: number;
  /** The IBAN. */
  accountNumber: string;
  /** Null when none was given (an IBAN from the EEA needs none). */
  bic: string | null;
  address: string;
  postalCode: string;
  city: string;
  countryCode: string;
  /** open, exported (in a SEPA file), done or cancelled */
  status: string;
  createdAt: string;
  completedAt: string | null;
  exportedAt: string | null;
  cancelledAt: string | null;
  cancelReason: string | null;
  /** Asked within 24 hours of an IBAN change: not exported nor paid until staff release it. */
  heldForReview: boolean;
  /** While held: when the bank account was changed (why it is held). */
  ibanChangedAt: string | null;
}

export interface PayoutRequestsQuery {
  paginatedListOfPayoutRequests: {
    status: ResponseStatus;
    items: PayoutRequest[];
    pagination: { currentPage: number; totalPages: number; totalCount: number } | null;
  } | null;
}

export interface PayoutRequestsQueryVariables {
  page: number;
  itemsPerPage: number;
  /** null for all. */
  status: 'open' | 'exported' | 'done' | 'cancelled' | null;
}

export const PAYOUT_REQUEST_FIELDS = gql`
  fragment PayoutRequestFields on PayoutRequest {
    id
    userId
    user {
      id
      username
      displayName
    }
    name
    amount
    accountNumber
    bic
    address
    postalCode
    city
    countryCode
    status
    createdAt
    completedAt
    exportedAt
    cancelledAt
    cancelReason
    heldForReview
    ibanChangedAt
  }
`;

/** Moderators and admins: payout requests, a page at a time, optionally by status. */
export const PayoutRequestsDocument: TypedDocumentNode<
  PayoutRequestsQuery,
  PayoutRequestsQueryVariables
> = gql`
  query PayoutRequests($page: Int!, $itemsPerPage: Int!, $status: String) {
    paginatedListOfPayoutRequests(page: $page, itemsPerPage: $itemsPerPage, status: $status) {
      status {
        success
        identifier
        message
      }
      items {
        ...PayoutRequestFields
      }
      pagination {
        currentPage
        totalPages
        totalCount
      }
    }
  }
  ${PAYOUT_REQUEST_FIELDS}
`;
