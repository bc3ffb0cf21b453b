import { useQuery } from '@apollo/client/react';
import type { ChallengeUser } from '../../challenge/graphql/fragments';
import { DiscoverUsersDocument } from '../graphql/DiscoverUsers';
import { DISCOVER_PAGE_SIZE, type DiscoverListState } from './useDiscoverChallenges';

export function useDiscoverUsers(page: number): DiscoverListState<ChallengeUser> {
  const { data, previousData, loading, error, refetch } = useQuery(DiscoverUsersDocument, {
    variables: { input: { list: 'all', page, itemsPerPage: DISCOVER_PAGE_SIZE } },
    fetchPolicy: 'cache-and-network',
  });
  const result = (data ?? previousData)?.discoverUsers;
  const ok = result?.status.success === true;
  return {
    items: ok ? result.items : null,
    totalPages: (ok && result.pagination?.totalPages) || 1,
    totalCount: (ok && result.pagination?.totalCount) || 0,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !result,
    loading,
    refetch: () => void refetch().catch(() => undefined),
  };
}
