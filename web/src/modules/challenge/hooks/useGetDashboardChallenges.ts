import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import { DashboardChallengesDocument } from '../graphql/DashboardChallenges';
import type { ChallengeSummary } from '../graphql/fragments';

export interface DashboardState {
  running: ChallengeSummary[] | null;
  requests: ChallengeSummary[] | null;
  runningCount: number;
  requestsCount: number;
  failure: ResponseStatus | null;
  requestFailed: boolean;
  loading: boolean;
  refetch: () => void;
}

export function useGetDashboardChallenges(): DashboardState {
  const { data, loading, error, refetch } = useQuery(DashboardChallengesDocument);
  const result = data?.getDashboardChallenges;
  const ok = result?.status.success === true;
  const running = ok ? (result.runningChallenges ?? []) : null;
  const requests = ok ? (result.challengeRequests ?? []) : null;
  return {
    running,
    requests,
    runningCount: (ok && result.runningChallengesCount) || (running?.length ?? 0),
    requestsCount: (ok && result.challengeRequestsCount) || (requests?.length ?? 0),
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !result,
    loading: loading && !result,
    refetch: () => void refetch().catch(() => undefined),
  };
}
