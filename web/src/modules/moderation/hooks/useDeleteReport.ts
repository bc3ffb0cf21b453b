import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { DeleteReportDocument } from '../graphql/DeleteReport';

const context: AppOperationContext = { suppressErrorToast: true };

/** Withdraws one of the user's own open reports; the page says why when it could not. */
export function useDeleteReport() {
  const [mutate, { loading }] = useMutation(DeleteReportDocument, { context });
  const deleteReport = useCallback(
    (reportId: string) =>
      settleMutation(
        () => mutate({ variables: { input: { reportId } } }),
        (data) => data.deleteReport,
      ),
    [mutate],
  );
  return { deleteReport, loading };
}
