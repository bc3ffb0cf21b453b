import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import type { PublicChallengeSummary } from '../../challenge/graphql/publicFragments';
import {
  DiscoverChallengesDocument,
  type DiscoverChallengesList,
} from '../graphql/DiscoverChallenges';

export const DISCOVER_PAGE_SIZE = 12;

export interface DiscoverListState<T> {
  /** The page's items; null until answered or when the answer was a failure. */
  items: T[] | null;
  totalPages: number;
  totalCount: number;
  failure: ResponseStatus | null;
  requestFailed: boolean;
  /** True while a page is on its way (the previous page stays shown meanwhile). */
  loading: boolean;
  refetch: () => void;
}

export function useDiscoverChallenges(
  list: DiscoverChallengesList,
  page: number,
  { skip = false }: { skip?: boolean } = {},
): DiscoverListState<PublicChallengeSummary> {
  const { data, previousData, loading, error, refetch } = useQuery(DiscoverChallengesDocument, {
    variables: { input: { list, page, itemsPerPage: DISCOVER_PAGE_SIZE } },
    skip,
    fetchPolicy: 'cache-and-network',
  });
  const result = (data ?? previousData)?.discoverChallenges;
  const ok = result?.status.success === true;
  return {
    items: ok ? (result.challenges ?? []) : null,
    totalPages: (ok && result.pagination?.totalPages) || 1,
    totalCount: (ok && result.pagination?.totalCount) || 0,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !result,
    loading,
    refetch: () => void refetch().catch(() => undefined),
  };
}
