import { useQuery } from '@apollo/client/react';
import { MyReportsDocument } from '../graphql/MyReports';

export const MY_REPORTS_PER_PAGE = 10;

/** One page of the logged-in user's own reports. */
export function useMyReports(page: number) {
  const { data, previousData, loading, error, refetch } = useQuery(MyReportsDocument, {
    variables: { page, itemsPerPage: MY_REPORTS_PER_PAGE },
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: true,
  });
  const result = (data ?? previousData)?.myReports;
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
