import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import { ChallengeSummaryFields, type ChallengeSummary } from './fragments';

export interface DashboardChallengesQuery {
  getDashboardChallenges: {
    status: ResponseStatus;
    runningChallengesCount: number | null;
    challengeRequestsCount: number | null;
    runningChallenges: ChallengeSummary[] | null;
    challengeRequests: ChallengeSummary[] | null;
  } | null;
}

/** The logged-in user's running challenges and the requests waiting for their answer. */
export const DashboardChallengesDocument: TypedDocumentNode<
  DashboardChallengesQuery,
  Record<string, never>
> = gql`
  query DashboardChallenges {
    getDashboardChallenges {
      status {
        success
        identifier
        message
      }
      runningChallengesCount
      challengeRequestsCount
      runningChallenges {
        ...ChallengeSummaryFields
      }
      challengeRequests {
        ...ChallengeSummaryFields
      }
    }
  }
  ${ChallengeSummaryFields}
`;
