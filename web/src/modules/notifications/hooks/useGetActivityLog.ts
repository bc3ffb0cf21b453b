import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import {
  ActivityLogDocument,
  type ActivityLogEntry,
  type Pagination,
} from '../graphql/ActivityLog';

export const ACTIVITY_PAGE_SIZE = 20;

export interface ActivityLogState {
  entries: ActivityLogEntry[] | null;
  pagination: Pagination | null;
  failure: ResponseStatus | null;
  requestFailed: boolean;
  loading: boolean;
  refetch: () => void;
}

/** One page of the logged-in user's activity log, newest first. */
export function useGetActivityLog(page: number): ActivityLogState {
  const { data, loading, error, refetch } = useQuery(ActivityLogDocument, {
    variables: { page, itemsPerPage: ACTIVITY_PAGE_SIZE },
    fetchPolicy: 'cache-and-network',
  });
  const result = data?.getActivityLogByUser;
  const entries = result?.status.success ? result.items : null;
  return {
    entries,
    pagination: result?.status.success ? (result.pagination ?? null) : null,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !entries,
    loading: loading && !entries,
    refetch: () => void refetch().catch(() => undefined),
  };
}
