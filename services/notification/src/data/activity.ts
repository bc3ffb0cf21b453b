import { LIST_DEPTH_MAX } from '@challenge/kit';
import type { Database, Transaction } from './db.ts';
import { Prisma } from './generated/client.ts';
import type { ActivityType } from './generated/enums.ts';

export type { ActivityType } from './generated/enums.ts';

export interface NewActivityEntry {
  eventId: string;
  userId: string;
  type: ActivityType;
  challengeId: string;
  slug: string;
  challengeName: string;
  rewardCents: number;
  otherUserId: string | null;
  occurredAt: Date;
}

export interface ActivityEntryRecord {
  id: bigint;
  type: ActivityType;
  challengeId: string;
  slug: string;
  challengeName: string;
  rewardCents: bigint;
  otherUserId: string | null;
  occurredAt: Date;
}

/** Adds entries; one that exists for the same event and user is left as it is. */
export async function insertActivityEntries(
  tx: Transaction,
  entries: NewActivityEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  // Raw SQL: Prisma compiles every createMany anew (its plan cache skips them; docs/adr/0104).
  const rows = entries.map(
    (entry) => Prisma.sql`(${entry.eventId}::uuid, ${entry.userId}::uuid,
      ${entry.type}::activity_type, ${entry.challengeId}::uuid, ${entry.slug},
      ${entry.challengeName}, ${BigInt(entry.rewardCents)}, ${entry.otherUserId}::uuid,
      ${entry.occurredAt}::timestamp(3))`,
  );
  await tx.$executeRaw`
    INSERT INTO activity_entries (event_id, user_id, type, challenge_id, slug, challenge_name,
                                  reward_cents, other_user_id, occurred_at)
    VALUES ${Prisma.join(rows)}
    ON CONFLICT DO NOTHING`;
}

/** One page of a user's log, newest first (ties broken by arrival), and the log's size. */
export async function listActivityEntries(
  db: Database,
  userId: string,
  window: { skip: number; take: number },
): Promise<{ rows: ActivityEntryRecord[]; total: number }> {
  const [rows, total] = await db.$transaction([
    db.activityEntry.findMany({
      where: { userId },
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
      skip: window.skip,
      take: window.take,
      select: {
        id: true,
        type: true,
        challengeId: true,
        slug: true,
        challengeName: true,
        rewardCents: true,
        otherUserId: true,
        occurredAt: true,
      },
    }),
    db.activityEntry.count({ where: { userId }, take: LIST_DEPTH_MAX }),
  ]);
  return { rows, total };
}

/** Erasure (UserDeleted): the user's own log goes; in others' logs they become nobody. */
export async function eraseActivityOf(tx: Transaction, userId: string): Promise<void> {
  await tx.activityEntry.deleteMany({ where: { userId } });
  await tx.activityEntry.updateMany({
    where: { otherUserId: userId },
    data: { otherUserId: null },
  });
}
