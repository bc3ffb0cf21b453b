import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  InitializePaymentDocument,
  type InitializePaymentMutationVariables,
} from '../graphql/InitializePayment';

// The form explains a refusal itself.
const context: AppOperationContext = { suppressErrorToast: true };

/** Starts a top-up of `amount` cents; a successful outcome carries the checkout's payment_url. */
export function useInitializePayment() {
  const [mutate, { loading }] = useMutation(InitializePaymentDocument, { context });
  const initializePayment = useCallback(
    (input: InitializePaymentMutationVariables['input']) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.InitializePayment,
      ),
    [mutate],
  );
  return { initializePayment, loading };
}
