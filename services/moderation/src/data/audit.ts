import { LIST_DEPTH_MAX } from '@challenge/kit';
import type { Database, Transaction } from './db.ts';

export interface AuditEntryRecord {
  id: string;
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  reason: string | null;
  createdAt: Date;
}

export interface NewAuditEntry {
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  reason?: string | null;
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
          createdAt: true,
        },
      }),
      db.auditEntry.count({ take: LIST_DEPTH_MAX }),
    ],
    { isolationLevel: 'RepeatableRead' },
  );
  return { items, totalCount };
}
