import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { CancelPayoutRequestDocument } from '../graphql/CancelPayoutRequest';

const context: AppOperationContext = { suppressErrorToast: true };

/** Cancels an open or exported payout request; its money goes back to the user's wallet. */
export function useCancelPayoutRequest() {
  const [mutate, { loading }] = useMutation(CancelPayoutRequestDocument, { context });
  const cancelPayoutRequest = useCallback(
    (id: string, reason: string) =>
      settleMutation(
        () => mutate({ variables: { id, reason } }),
        (data) => data.cancelPayoutRequest,
      ),
    [mutate],
  );
  return { cancelPayoutRequest, loading };
}
