import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  DecideRefereeCaseDocument,
  RefereeCasesDocument,
  type RefereeDecision,
} from '../graphql/RefereeCases';
import { usePagedList } from './usePagedList';

export const CASES_PER_PAGE = 10;
const context: AppOperationContext = { suppressErrorToast: true };

/** One page of open referee cases. */
export function useGetRefereeCases(page: number) {
  return usePagedList(
    RefereeCasesDocument,
    { page, itemsPerPage: CASES_PER_PAGE },
    (data) => data.paginatedListOfRefereeChallenges,
  );
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
