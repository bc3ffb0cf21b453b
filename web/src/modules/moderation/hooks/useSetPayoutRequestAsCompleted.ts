import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { SetPayoutRequestAsCompletedDocument } from '../graphql/SetPayoutRequestAsCompleted';

const context: AppOperationContext = { suppressErrorToast: true };

/** Marks a payout request as paid (after the bank transfer went out). */
export function useSetPayoutRequestAsCompleted() {
  const [mutate, { loading }] = useMutation(SetPayoutRequestAsCompletedDocument, { context });
  const setPayoutRequestAsCompleted = useCallback(
    (id: string) =>
      settleMutation(
        () => mutate({ variables: { id } }),
        (data) => data.setPayoutRequestAsCompleted,
      ),
    [mutate],
  );
  return { setPayoutRequestAsCompleted, loading };
}
