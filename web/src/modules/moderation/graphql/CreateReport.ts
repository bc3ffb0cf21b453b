import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';

export type ReportEntityType = 'Challenge' | 'User';

/** The spec's report reasons, in the order the dialog offers them. */
export const REPORT_REASONS = [
  'inappropriate',
  'harmful',
  'harassment',
  'misleading',
  'spam',
  'intellectual_property',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** The reasons moderation refuses without details (services/moderation, ADR 0040). */
export const REASONS_NEEDING_DETAILS: ReadonlySet<ReportReason> = new Set([
  'harassment',
  'misleading',
  'intellectual_property',
  'other',
]);

/** The most characters moderation keeps of a report's details. */
export const REPORT_DETAILS_MAX = 800;

export interface CreateReportInput {
  entityType: ReportEntityType;
  entityId: string;
  reason: ReportReason;
  details?: string;
}

export interface CreateReportMutation {
  createReport: {
    status: ResponseStatus;
    report: { id: string; reason: string; entityId: string; entityType: string } | null;
  } | null;
}

export interface CreateReportMutationVariables {
  input: CreateReportInput;
}

/** A logged-in user reports a challenge or a user, once per content (redundant_report). */
export const CreateReportDocument: TypedDocumentNode<
  CreateReportMutation,
  CreateReportMutationVariables
> = gql`
  mutation CreateReport($input: CreateReportInput!) {
    createReport(input: $input) {
      status {
        success
        identifier
        message
      }
      report {
        id
        reason
        entityId
        entityType
      }
    }
  }
`;
