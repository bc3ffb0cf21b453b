import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import {
  WalletTransactionsDocument,
  type Pagination,
  type WalletTransaction,
} from '../graphql/WalletTransactions';

export const TRANSACTIONS_PER_PAGE = 10;

export interface WalletTransactionsState {
  items: WalletTransaction[] | null;
  pagination: Pagination | null;
  /** A page is being fetched (the previous page may still be shown). */
  fetching: boolean;
  failure: ResponseStatus | null;
  requestFailed: boolean;
  loading: boolean;
  refetch: () => void;
}

/** One page (1-based) of the user's transaction history, newest first. */
export function useGetWalletTransactions(page: number): WalletTransactionsState {
  const { data, previousData, loading, error, refetch } = useQuery(WalletTransactionsDocument, {
    variables: { page, itemsPerPage: TRANSACTIONS_PER_PAGE },
    fetchPolicy: 'cache-and-network',
  });
  // While another page loads, the current one stays on screen (the pager is disabled meanwhile).
  const result = (data ?? previousData)?.getWalletTransactions;
  const items = result?.status.success ? result.items : null;
  return {
    items,
    pagination: result?.status.success ? (result.pagination ?? null) : null,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !items,
    fetching: loading,
    loading: loading && !items,
    refetch: () => void refetch().catch(() => undefined),
  };
}
