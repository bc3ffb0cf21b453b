import { useQuery } from '@apollo/client/react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { ChallengeRulesDocument } from '../graphql/ChallengeRules';

// Without an answer the spec's own client rule applies; nothing to tell the user.
const context: AppOperationContext = { suppressErrorToast: true };

/** The server's reward minimum (issue 22), or null until it is known (the spec's 0.1 applies). */
export function useChallengeRules(): { rewardMinCents: number } | null {
  const { data } = useQuery(ChallengeRulesDocument, { fetchPolicy: 'cache-first', context });
  const result = data?.challengeRules;
  return result?.status.success && result.rewardMinCents !== null
    ? { rewardMinCents: result.rewardMinCents }
    : null;
}
