import { useMutation, useQuery } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  DecideRefereeCaseDocument,
  RefereeCasesDocument,
  type RefereeDecision,
} from '../graphql/RefereeCases';

export const CASES_PER_PAGE = 10;
const context: AppOperationContext = { suppressErrorToast: true };

/** One page of open referee cases. */
export function useGetRefereeCases(page: number) {
  const { data, previousData, loading, refetch } = useQuery(RefereeCasesDocument, {
    variables: { page, itemsPerPage: CASES_PER_PAGE },
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: true,
  });
  const result = (data ?? previousData)?.paginatedListOfRefereeChallenges;
  const items = result?.status.success ? result.items : null;
  return {
    items,
    pagination: result?.status.success ? (result.pagination ?? null) : null,
    failure: result && !result.status.success ? result.status : null,
    loading: loading && !items,
    fetching: loading,
    refetch: async () => {
      await refetch().catch(() => undefined);
    },
  };
}

/** Approve (the challenge is completed) or reject (it failed) with a written reason. */
export function useDecideRefereeCase() {
  const [mutate, { loading }] = useMutation(DecideRefereeCaseDocument, { context });
  const decide = useCallback(
    (caseId: string, decision: RefereeDecision, reason: string) =>
      settleMutation(
        () => mutate({ variables: { input: { caseId, decision, reason } } }),
        (data) => data.decideRefereeCase,
      ),
    [mutate],
  );
  return { decide, loading };
}
