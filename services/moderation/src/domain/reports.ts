import { z } from 'zod';
import type { Database } from '../data/db.ts';
import { findReportsPage, type ReportEntityType, type ReportRecord } from '../data/reports.ts';
import { pageRequestSchema, pageWindow, paginationOf, type Pagination } from '@challenge/kit';

export const REPORT_ENTITY_TYPES = [
  'Challenge',
  'User',
] as const satisfies readonly ReportEntityType[];

export const reportListQuerySchema = pageRequestSchema.extend({
  type: z.enum(REPORT_ENTITY_TYPES),
});
export type ReportListQuery = z.output<typeof reportListQuerySchema>;

export interface ReportView {
  id: string;
  title: string;
  url: string;
  slug: string | null;
  reason: string;
  details: string | null;
  entityId: string;
  entityType: ReportEntityType;
  reporterId: string;
}

export function toReportView(report: ReportRecord): ReportView {
  return {
    id: report.id,
    title: report.title,
    url: report.url,
    slug: report.slug,
    reason: report.reason,
    details: report.details,
    entityId: report.entityId,
    entityType: report.entityType,
    reporterId: report.reporterId,
  };
}

/**
 * The staff queue: open reports about one kind of entity, newest first. Resolved and dismissed
 * reports have been handled and leave the queue. Who may read it is checked by the caller.
 */
export async function listOpenReports(
  db: Database,
  query: ReportListQuery,
): Promise<{ items: ReportView[]; pagination: Pagination }> {
  const { items, totalCount } = await findReportsPage(
    db,
    { status: 'open', entityType: query.type },
    pageWindow(query),
  );
  return { items: items.map(toReportView), pagination: paginationOf(query, totalCount) };
}
