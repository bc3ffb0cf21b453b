import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  InitializePaymentDocument,
  type InitializePaymentMutationVariables,
} from '../graphql/InitializePayment';

// The form explains a refusal itself.
const context: AppOperationContext = { suppressErrorToast: true };

type TopUpInput = Omit<InitializePaymentMutationVariables['input'], 'idempotencyKey'>;

/**
 * Starts a top-up of `amount` cents; a successful outcome carries the checkout's payment_url.
 * Each submission carries an idempotency key, the same one when the same top-up is sent again
 * before the server answered (a double click, a retry after a network error), so that it starts
 * one payment only.
 */
export function useInitializePayment() {
  const [mutate, { loading }] = useMutation(InitializePaymentDocument, { context });
  const { keyFor, settle } = useIdempotencyKeys();
  const initializePayment = useCallback(
    async (input: TopUpInput) => {
      const idempotencyKey = keyFor(input);
      const outcome = await settleMutation(
        () => mutate({ variables: { input: { ...input, idempotencyKey } } }),
        (data) => data.InitializePayment,
      );
      settle(outcome);
      return outcome;
    },
    [mutate, keyFor, settle],
  );
  return { initializePayment, loading };
}
