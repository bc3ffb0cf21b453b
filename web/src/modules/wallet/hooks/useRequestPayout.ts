import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { RequestPayoutDocument } from '../graphql/RequestPayout';

const context: AppOperationContext = { suppressErrorToast: true };

/** Asks for a payout of `amount` integer euro cents; the wallet page and history refresh after. */
export function useRequestPayout() {
  const [mutate, { loading }] = useMutation(RequestPayoutDocument, {
    context,
    refetchQueries: ['Wallet', 'WalletTransactions'],
  });
  const requestPayout = useCallback(
    (amount: number) =>
      settleMutation(
        () => mutate({ variables: { input: { amount } } }),
        (data) => data.payoutRequest,
      ),
    [mutate],
  );
  return { requestPayout, loading };
}
