import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  UpdateProfilePaymentInformationDocument,
  type PaymentProfileInput,
} from '../graphql/UpdateProfilePaymentInformation';

const context: AppOperationContext = { suppressErrorToast: true };

/** Saves the payout details (pages that show them load them afresh on every visit). */
export function useUpdateProfilePaymentInformation() {
  const [mutate, { loading }] = useMutation(UpdateProfilePaymentInformationDocument, { context });
  const updateProfilePaymentInformation = useCallback(
    (input: PaymentProfileInput) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.updateProfilePaymentInformation,
      ),
    [mutate],
  );
  return { updateProfilePaymentInformation, loading };
}
