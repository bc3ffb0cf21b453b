import type { ResponseStatus } from '../../../lib/graphql';
import {
  PayoutRequestsDocument,
  type PayoutRequest,
  type PayoutRequestsQuery,
} from '../graphql/PayoutRequests';
import { usePagedList } from './usePagedList';

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
  return usePagedList(
    PayoutRequestsDocument,
    { page, itemsPerPage: PAYOUTS_PER_PAGE, status: filter === 'all' ? null : filter },
    (data) => data.paginatedListOfPayoutRequests,
  );
}
