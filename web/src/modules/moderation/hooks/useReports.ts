import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import type { ReportEntityType } from '../graphql/CreateReport';
import {
  BanUserDocument,
  ModerateReportDocument,
  ReportsDocument,
  type BanType,
  type ModerateAction,
} from '../graphql/Reports';
import { usePagedList } from './usePagedList';

export const REPORTS_PER_PAGE = 20;
const context: AppOperationContext = { suppressErrorToast: true };

/** One page of open reports about challenges or users, for staff. */
export function useGetReports(type: ReportEntityType, page: number) {
  return usePagedList(
    ReportsDocument,
    { type, page, itemsPerPage: REPORTS_PER_PAGE },
    (data) => data.paginatedListOfReports,
  );
}

/** Dismiss a report, or take its challenge offline or remove it. */
export function useModerateReport() {
  const [mutate, { loading }] = useMutation(ModerateReportDocument, { context });
  const moderateReport = useCallback(
    (reportId: string, action: ModerateAction, reason: string) =>
      settleMutation(
        () => mutate({ variables: { input: { reportId, action, reason } } }),
        (data) => data.moderateReport,
      ),
    [mutate],
  );
  return { moderateReport, loading };
}

/** Ban a reported user, soft or hard (identity). */
export function useBanUser() {
  const [mutate, { loading }] = useMutation(BanUserDocument, { context });
  const banUser = useCallback(
    (userId: string, type: BanType, reason: string) =>
      settleMutation(
        () => mutate({ variables: { input: { userId, type, reason } } }),
        (data) => data.banUser,
      ),
    [mutate],
  );
  return { banUser, loading };
}
