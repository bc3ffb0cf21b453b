import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { ReportEntityType } from './CreateReport';

export interface StaffReport {
  id: string;
  title: string;
  url: string;
  slug: string | null;
  reason: string;
  details: string | null;
  entityId: string;
  entityType: string;
  reporter: { id: string; username: string; displayName: string | null };
}

export interface ReportsQuery {
  paginatedListOfReports: {
    status: ResponseStatus;
    items: StaffReport[];
    pagination: { currentPage: number; totalPages: number; totalCount: number } | null;
  } | null;
}

export interface ReportsQueryVariables {
  type: ReportEntityType;
  page: number;
  itemsPerPage?: number;
}

/** Staff: the open reports about challenges or users, newest first. */
export const ReportsDocument: TypedDocumentNode<ReportsQuery, ReportsQueryVariables> = gql`
  query Reports($type: String!, $page: Int!, $itemsPerPage: Int) {
    paginatedListOfReports(type: $type, page: $page, itemsPerPage: $itemsPerPage) {
      status {
        success
        identifier
        message
      }
      items {
        id
        title
        url
        slug
        reason
        details
        entityId
        entityType
        reporter {
          id
          username
          displayName
        }
      }
      pagination {
        currentPage
        totalPages
        totalCount
      }
    }
  }
`;

export type ModerateAction = 'dismiss' | 'take_offline' | 'remove';

export interface ModerateReportMutation {
  moderateReport: { status: ResponseStatus; outcome: string | null } | null;
}

export interface ModerateReportMutationVariables {
  input: { reportId: string; action: ModerateAction; reason: string };
}

/** Moderators and admins: dismiss a report, or remove or take offline its challenge. */
export const ModerateReportDocument: TypedDocumentNode<
  ModerateReportMutation,
  ModerateReportMutationVariables
> = gql`
  mutation ModerateReport($input: ModerateReportInput!) {
    moderateReport(input: $input) {
      status {
        success
        identifier
        message
      }
      outcome
    }
  }
`;

export type BanType = 'soft' | 'hard';

export interface BanUserMutation {
  banUser: { status: ResponseStatus } | null;
}

export interface BanUserMutationVariables {
  input: { userId: string; type: BanType; reason: string };
}

/** Identity's ban (ADR 0041): moderation hears of it and actions the open reports on the user. */
export const BanUserDocument: TypedDocumentNode<BanUserMutation, BanUserMutationVariables> = gql`
  mutation BanUser($input: BanUserInput!) {
    banUser(input: $input) {
      status {
        success
        identifier
        message
      }
    }
  }
`;
