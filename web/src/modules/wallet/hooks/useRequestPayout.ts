import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { settleMutation } from '../../../lib/mutationOutcome';
import { RequestPayoutDocument } from '../graphql/RequestPayout';

const context: AppOperationContext = { suppressErrorToast: true };

/**
 * Asks for a payout of `amount` integer euro cents; the wallet page and history refresh after.
 * Each submission carries an idempotency key, the same one when the same payout is sent again
 * before the server answered (a double click, a retry after a network error), so that it freezes
 * the money once only.
 */
export function useRequestPayout() {
  const [mutate, { loading }] = useMutation(RequestPayoutDocument, {
    context,
    refetchQueries: ['Wallet', 'WalletTransactions'],
  });
  const { keyFor, settle } = useIdempotencyKeys();
  const requestPayout = useCallback(
    async (amount: number) => {
      const idempotencyKey = keyFor({ amount });
      const outcome = await settleMutation(
        () => mutate({ variables: { input: { amount, idempotencyKey } } }),
        (data) => data.payoutRequest,
      );
      settle(outcome);
      return outcome;
    },
    [mutate, keyFor, settle],
  );
  return { requestPayout, loading };
}
