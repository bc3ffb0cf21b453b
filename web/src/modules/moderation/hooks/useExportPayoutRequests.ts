import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  ExportPayoutRequestsDocument,
  type ExportPayoutRequestsMutationVariables,
} from '../graphql/ExportPayoutRequests';

const context: AppOperationContext = { suppressErrorToast: true };

/** Builds the SEPA XML file of the open payouts (marks them as exported on the server). */
export function useExportPayoutRequests() {
  const [mutate, { loading }] = useMutation(ExportPayoutRequestsDocument, { context });
  const exportPayoutRequests = useCallback(
    (input: ExportPayoutRequestsMutationVariables['input']) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.exportPayoutRequests,
      ),
    [mutate],
  );
  return { exportPayoutRequests, loading };
}
