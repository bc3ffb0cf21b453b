import { LIST_DEPTH_MAX } from '@challenge/kit';
import { Prisma } from './generated/client.ts';
import type {
  ReportEntityType,
  ReportOutcome,
  ReportReason,
  ReportStatus,
} from './generated/enums.ts';
import type { Database, Transaction } from './db.ts';

export type { ReportEntityType, ReportOutcome, ReportReason, ReportStatus };

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
  outcome: ReportOutcome | null;
  resolvedAt: Date | null;
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
  outcome: true,
  resolvedAt: true,
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
      db.report.count({ where: filter, take: LIST_DEPTH_MAX }),
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
  outcome?: ReportOutcome | null;
  createdAt?: Date;
}

export function insertReport(db: Database | Transaction, row: NewReportRow): Promise<ReportRecord> {
  return db.report.create({ data: row, select: reportFields });
}

/** Thrown when the reporter already reported this content (the unique constraint decides). */
export class DuplicateReportError extends Error {
  constructor() {
    super('duplicate report');
  }
}

/** Inserts a report; a second one by the same reporter about the same content throws. */
export async function createReportRow(
  db: Database | Transaction,
  row: NewReportRow,
): Promise<ReportRecord> {
  try {
    return await db.report.create({ data: row, select: reportFields });
  } catch (error) {
    // Two concurrent clicks both pass any check before the insert: the constraint is the judge.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new DuplicateReportError();
    }
    throw error;
  }
}

export function findReportById(
  db: Database | Transaction,
  id: string,
): Promise<ReportRecord | null> {
  return db.report.findUnique({ where: { id }, select: reportFields });
}

/** Deletes a report of this reporter while it is open; false when there was none. */
export async function deleteOpenReport(
  db: Database,
  id: string,
  reporterId: string,
): Promise<boolean> {
  const { count } = await db.report.deleteMany({ where: { id, reporterId, status: 'open' } });
  return count === 1;
}

/** One page of a reporter's own reports, newest first, whatever their status. */
export async function findReporterPage(
  db: Database,
  reporterId: string,
  window: { skip: number; take: number },
): Promise<{ items: ReportRecord[]; totalCount: number }> {
  const where = { reporterId };
  const [items, totalCount] = await db.$transaction(
    [
      db.report.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        skip: window.skip,
        take: window.take,
        select: reportFields,
      }),
      db.report.count({ where, take: LIST_DEPTH_MAX }),
    ],
    { isolationLevel: 'RepeatableRead' },
  );
  return { items, totalCount };
}

/**
 * Closes open reports (one, or every open one about an entity) with an outcome, and returns the
 * ones this call closed: a report another transaction closed first is not returned again.
 */
export async function closeOpenReports(
  tx: Transaction,
  filter: { id: string } | { entityType: ReportEntityType; entityId: string },
  close: { outcome: ReportOutcome; resolvedBy: string | null; now: Date },
): Promise<ReportRecord[]> {
  const status: ReportStatus = close.outcome === 'no_action' ? 'dismissed' : 'resolved';
  const where = 'id' in filter ? { id: filter.id } : filter;
  // Lock first, so that two staff members acting at once close each report once.
  const ids = 'id' in filter ? [filter.id] : await openReportIds(tx, filter);
  if (ids.length === 0) return [];
  await tx.$queryRaw`SELECT id FROM reports WHERE id = ANY(${ids}::uuid[]) FOR UPDATE`;
  const open = await tx.report.findMany({
    where: { ...where, id: { in: ids }, status: 'open' },
    select: reportFields,
  });
  if (open.length === 0) return [];
  await tx.report.updateMany({
    where: { id: { in: open.map((report) => report.id) }, status: 'open' },
    data: { status, outcome: close.outcome, resolvedBy: close.resolvedBy, resolvedAt: close.now },
  });
  return open.map((report) => ({
    ...report,
    status,
    outcome: close.outcome,
    resolvedAt: close.now,
  }));
}

async function openReportIds(
  tx: Transaction,
  filter: { entityType: ReportEntityType; entityId: string },
): Promise<string[]> {
  const rows = await tx.report.findMany({
    where: { ...filter, status: 'open' },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}
