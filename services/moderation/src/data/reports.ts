import type { ReportEntityType, ReportReason, ReportStatus } from './generated/enums.ts';
import type { Database, Transaction } from './db.ts';

export type { ReportEntityType, ReportReason, ReportStatus };

export interface ReportRecord {
  id: string;
  reporterId: string;
  entityType: ReportEntityType;
  entityId: string;
  reason: ReportReason;
  details: string | null;
  title: string;
  url: string;
  slug: string | null;
  status: ReportStatus;
  createdAt: Date;
}

const reportFields = {
  id: true,
  reporterId: true,
  entityType: true,
  entityId: true,
  reason: true,
  details: true,
  title: true,
  url: true,
  slug: true,
  status: true,
  createdAt: true,
} as const;

/** One page of the reports in a status about one kind of entity, newest first, and their total. */
export async function findReportsPage(
  db: Database,
  filter: { status: ReportStatus; entityType: ReportEntityType },
  window: { skip: number; take: number },
): Promise<{ items: ReportRecord[]; totalCount: number }> {
  // One snapshot, so that the page and the count agree while reports keep arriving.
  const [items, totalCount] = await db.$transaction(
    [
      db.report.findMany({
        where: filter,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        skip: window.skip,
        take: window.take,
        select: reportFields,
      }),
      db.report.count({ where: filter }),
    ],
    { isolationLevel: 'RepeatableRead' },
  );
  return { items, totalCount };
}

export interface NewReportRow {
  reporterId: string;
  entityType: ReportEntityType;
  entityId: string;
  reason: ReportReason;
  details?: string | null;
  title: string;
  url: string;
  slug?: string | null;
  status?: ReportStatus;
  createdAt?: Date;
}

export function insertReport(db: Database | Transaction, row: NewReportRow): Promise<ReportRecord> {
  return db.report.create({ data: row, select: reportFields });
}
