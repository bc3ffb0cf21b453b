import { gql, type TypedDocumentNode } from '@apollo/client';
import type { ResponseStatus } from '../../../lib/graphql';
import type { ReportEntityType } from './CreateReport';

/** pending (open), actioned (staff acted on the content) or dismissed. */
export type ReportOutcome = 'pending' | 'actioned' | 'dismissed';
/** What staff did about an actioned report (moderation's ReportOutcome). */
export type ReportAction = 'removed' | 'taken_offline' | 'user_banned';

/** A report as its reporter sees it (services/moderation: OwnReport). */
export interface OwnReport {
  id: string;
  title: string;
  url: string;
  slug: string | null;
  reason: string;
  details: string | null;
  entityId: string;
  entityType: ReportEntityType;
  outcome: ReportOutcome;
  action: ReportAction | null;
  createdAt: string;
  resolvedAt: string | null;
}

export interface MyReportsQuery {
  myReports: {
    status: ResponseStatus;
    items: OwnReport[];
    pagination: { currentPage: number; totalPages: number; totalCount: number } | null;
  } | null;
}

export interface MyReportsQueryVariables {
  page: number;
  itemsPerPage?: number;
}

/** The logged-in user's own reports, newest first, with what staff did about each. */
export const MyReportsDocument: TypedDocumentNode<MyReportsQuery, MyReportsQueryVariables> = gql`
  query MyReports($page: Int, $itemsPerPage: Int) {
    myReports(page: $page, itemsPerPage: $itemsPerPage) {
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
        outcome
        action
        createdAt
        resolvedAt
      }
      pagination {
        currentPage
        totalPages
        totalCount
      }
    }
  }
`;
