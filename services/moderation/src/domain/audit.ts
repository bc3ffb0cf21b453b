import { pageWindow, paginationOf, type PageRequest, type Pagination } from '@challenge/kit';
import { findAuditPage, type AuditEntryRecord } from '../data/audit.ts';
import type { Database } from '../data/db.ts';

/** The audit log, newest first; admins only (checked by the caller). Nobody can change it. */
export async function listAuditEntries(
  db: Database,
  query: PageRequest,
): Promise<{ items: AuditEntryRecord[]; pagination: Pagination }> {
  const { items, totalCount } = await findAuditPage(db, pageWindow(query));
  return { items, pagination: paginationOf(query, totalCount) };
}
