import { LIST_DEPTH_MAX } from '@challenge/kit';
import type { Database, Transaction } from './db.ts';

export interface AuditEntryRecord {
  id: string;
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  reason: string | null;
  subjectUserId: string | null;
  amountCents: bigint | null;
  itemCount: number | null;
  createdAt: Date;
}

export interface NewAuditEntry {
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  reason?: string | null;
  subjectUserId?: string | null;
  amountCents?: bigint | null;
  itemCount?: number | null;
  createdAt?: Date;
}

/** Appends to the audit log: the only write there is (a trigger refuses UPDATE and DELETE). */
export async function appendAudit(tx: Transaction, entry: NewAuditEntry): Promise<void> {
  await tx.auditEntry.create({ data: entry, select: { id: true } });
}

export async function findAuditPage(
  db: Database,
  window: { skip: number; take: number },
): Promise<{ items: AuditEntryRecord[]; totalCount: number }> {
  const [items, totalCount] = await db.$transaction(
    [
      db.auditEntry.findMany({
        orderBy: { seq: 'desc' },
        skip: window.skip,
        take: window.take,
        select: {
          id: true,
          actorId: true,
          action: true,
          targetType: true,
          targetId: true,
          reason: true,
          subjectUserId: true,
          amountCents: true,
          itemCount: true,
          createdAt: true,
        },
      }),
      db.auditEntry.count({ take: LIST_DEPTH_MAX }),
    ],
    { isolationLevel: 'RepeatableRead' },
  );
  return { items, totalCount };
}

/**
 * What the targets of a page of entries are about, in three queries: the challenges moderation
 * knows (names and slugs), the reports (their challenge or user) and the referee cases (their
 * challenge and performer).
 */
export async function findAuditTargets(
  db: Database,
  ids: { challenges: string[]; reports: string[]; cases: string[] },
) {
  const [reports, cases] = await Promise.all([
    db.report.findMany({
      where: { id: { in: ids.reports } },
      select: { id: true, entityType: true, entityId: true },
    }),
    db.refereeCase.findMany({
      where: { id: { in: ids.cases } },
      select: { id: true, challengeId: true, performerId: true, challengedUserId: true },
    }),
  ]);
  const challengeIds = [
    ...ids.challenges,
    ...reports.filter((r) => r.entityType === 'Challenge').map((r) => r.entityId),
    ...cases.map((c) => c.challengeId),
  ];
  const challenges = await db.knownChallenge.findMany({
    where: { id: { in: [...new Set(challengeIds)] } },
    select: { id: true, name: true, slug: true },
  });
  return { reports, cases, challenges };
}
