import { pageWindow, paginationOf, type PageRequest, type Pagination } from '@challenge/kit';
import { findAuditPage, findAuditTargets, type AuditEntryRecord } from '../data/audit.ts';
import type { Database } from '../data/db.ts';

/** An entry with what it is about, named (docs/adr/0082): the user, the challenge, the amount. */
export interface AuditEntryView extends AuditEntryRecord {
  /** The user the action concerned: the target user, a payout's payee, a reported user. */
  subjectUserId: string | null;
  challengeName: string | null;
  challengeSlug: string | null;
}

/** The audit log, newest first; admins only (checked by the caller). Nobody can change it. */
export async function listAuditEntries(
  db: Database,
  query: PageRequest,
): Promise<{ items: AuditEntryView[]; pagination: Pagination }> {
  const { items, totalCount } = await findAuditPage(db, pageWindow(query));
  const idsOf = (type: string) =>
    items.filter((entry) => entry.targetType === type).map((entry) => entry.targetId);
  const targets = await findAuditTargets(db, {
    challenges: idsOf('Challenge'),
    reports: idsOf('Report'),
    cases: idsOf('RefereeCase'),
  });
  const report = new Map(targets.reports.map((row) => [row.id, row]));
  const refereeCase = new Map(targets.cases.map((row) => [row.id, row]));
  const challenge = new Map(targets.challenges.map((row) => [row.id, row]));
  const view = (entry: AuditEntryRecord): AuditEntryView => {
    const reported = entry.targetType === 'Report' ? report.get(entry.targetId) : undefined;
    const decided =
      entry.targetType === 'RefereeCase' ? refereeCase.get(entry.targetId) : undefined;
    const challengeId =
      entry.targetType === 'Challenge'
        ? entry.targetId
        : reported?.entityType === 'Challenge'
          ? reported.entityId
          : decided?.challengeId;
    const subjectUserId =
      entry.subjectUserId ??
      (entry.targetType === 'User' ? entry.targetId : null) ??
      (reported?.entityType === 'User' ? reported.entityId : null) ??
      decided?.performerId ??
      decided?.challengedUserId ??
      null;
    const named = challengeId ? challenge.get(challengeId) : undefined;
    return {
      ...entry,
      subjectUserId,
      challengeName: named?.name ?? null,
      challengeSlug: named?.slug ?? null,
    };
  };
  return { items: items.map(view), pagination: paginationOf(query, totalCount) };
}
