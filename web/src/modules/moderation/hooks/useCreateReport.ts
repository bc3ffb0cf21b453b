import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { CreateReportDocument, type CreateReportInput } from '../graphql/CreateReport';

const context: AppOperationContext = { suppressErrorToast: true };

/** Reports a challenge or a user; the dialog shows why it failed (e.g. redundant_report). */
export function useCreateReport() {
  const [mutate, { loading }] = useMutation(CreateReportDocument, { context });
  const createReport = useCallback(
    (input: CreateReportInput) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.createReport,
      ),
    [mutate],
  );
  return { createReport, loading };
}
