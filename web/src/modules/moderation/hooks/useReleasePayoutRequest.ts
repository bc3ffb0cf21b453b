import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { ReleasePayoutRequestDocument } from '../graphql/ReleasePayoutRequest';

const context: AppOperationContext = { suppressErrorToast: true };

/** Releases a payout held after an IBAN change, once staff checked it with the user. */
export function useReleasePayoutRequest() {
  const [mutate, { loading }] = useMutation(ReleasePayoutRequestDocument, { context });
  const releasePayoutRequest = useCallback(
    (id: string) =>
      settleMutation(
        () => mutate({ variables: { id } }),
        (data) => data.releasePayoutRequest,
      ),
    [mutate],
  );
  return { releasePayoutRequest, loading };
}
