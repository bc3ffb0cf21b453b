import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import {
  PayoutRequestsDocument,
  type PayoutRequest,
  type PayoutRequestsQuery,
} from '../graphql/PayoutRequests';

export const PAYOUTS_PER_PAGE = 20;

export type PayoutStatusFilter = 'open' | 'exported' | 'done' | 'cancelled' | 'all';

type Pagination = NonNullable<
  NonNullable<PayoutRequestsQuery['paginatedListOfPayoutRequests']>['pagination']
>;

export interface PayoutRequestsState {
  items: PayoutRequest[] | null;
  pagination: Pagination | null;
  failure: ResponseStatus | null;
  requestFailed: boolean;
  /** Nothing to show yet. */
  loading: boolean;
  /** A (new) page is being fetched; the previous one may still be shown. */
  fetching: boolean;
  refetch: () => Promise<void>;
}

/** One page of payout requests for staff, filtered by status. */
export function useGetPayoutRequests(
  page: number,
  filter: PayoutStatusFilter,
): PayoutRequestsState {
  const { data, previousData, loading, error, refetch } = useQuery(PayoutRequestsDocument, {
    variables: { page, itemsPerPage: PAYOUTS_PER_PAGE, status: filter === 'all' ? null : filter },
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: true,
  });
  const result = (data ?? previousData)?.paginatedListOfPayoutRequests;
  const items = result?.status.success ? result.items : null;
  return {
    items,
    pagination: result?.status.success ? (result.pagination ?? null) : null,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !items,
    loading: loading && !items,
    fetching: loading,
    refetch: async () => {
      await refetch().catch(() => undefined);
    },
  };
}
