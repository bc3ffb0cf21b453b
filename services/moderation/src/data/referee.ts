import { randomUUID } from 'node:crypto';
import type { Database, Transaction } from './db.ts';

export interface RefereeCaseRecord {
  id: string;
  challengeId: string;
  ownerId: string;
  challengedUserId: string | null;
  /** Whose performance is disputed; null only for a case opened before sides were recorded. */
  performerId: string | null;
  slug: string;
  challengeName: string;
  rewardCents: number;
  reason: string;
  videoId: string | null;
  openedAt: Date;
  deadline: Date;
  escalatedAt: Date | null;
  status: 'open' | 'decided' | 'withdrawn';
  decision: string | null;
  comment: string | null;
  refereeId: string | null;
  decidedAt: Date | null;
}

const caseFields = {
  id: true,
  challengeId: true,
  ownerId: true,
  challengedUserId: true,
  performerId: true,
  slug: true,
  challengeName: true,
  rewardCents: true,
  reason: true,
  videoId: true,
  openedAt: true,
  deadline: true,
  escalatedAt: true,
  status: true,
  decision: true,
  comment: true,
  refereeId: true,
  decidedAt: true,
} as const;

export type NewRefereeCase = Omit<
  RefereeCaseRecord,
  'id' | 'escalatedAt' | 'status' | 'decision' | 'comment' | 'refereeId' | 'decidedAt'
>;

/**
 * Opens the case of one disputed side once: a side enters referee at most once, so a second
 * ChallengeSentToReferee for the same (challenge, performer) (a redelivery under a new id) meets
 * the unique index and opens nothing.
 */
export async function insertRefereeCase(tx: Transaction, row: NewRefereeCase): Promise<void> {
  // Raw SQL: Prisma compiles every createMany anew (its plan cache skips them; docs/adr/0104).
  await tx.$executeRaw`
    INSERT INTO referee_cases (id, challenge_id, owner_id, challenged_user_id, performer_id, slug,
                               challenge_name, reward_cents, reason, video_id, opened_at, deadline)
    VALUES (${randomUUID()}::uuid, ${row.challengeId}::uuid, ${row.ownerId}::uuid,
            ${row.challengedUserId}::uuid, ${row.performerId}::uuid, ${row.slug},
            ${row.challengeName}, ${row.rewardCents}, ${row.reason}, ${row.videoId}::uuid,
            ${row.openedAt}::timestamp(3), ${row.deadline}::timestamp(3))
    ON CONFLICT DO NOTHING`;
}

/**
 * A case opened before sides were recorded (performer null) is about the one side that was
 * disputed then; once another side of that challenge is disputed, the old case is that other
 * party's. Only while no case of that party exists, so the unique index is never hit.
 */
export async function attributeUnrecordedCase(
  tx: Transaction,
  challengeId: string,
  performerId: string,
): Promise<void> {
  await tx.$executeRaw`
    UPDATE referee_cases SET performer_id = ${performerId}::uuid
     WHERE challenge_id = ${challengeId}::uuid AND performer_id IS NULL
       AND NOT EXISTS (SELECT 1 FROM referee_cases
                        WHERE challenge_id = ${challengeId}::uuid
                          AND performer_id = ${performerId}::uuid)`;
}

export function findRefereeCase(
  db: Database | Transaction,
  id: string,
): Promise<RefereeCaseRecord | null> {
  return db.refereeCase.findUnique({ where: { id }, select: caseFields });
}

/** Open cases, escalated (overdue) first, then by deadline. */
export async function findOpenCasesPage(
  db: Database,
  window: { skip: number; take: number },
): Promise<{ items: RefereeCaseRecord[]; totalCount: number }> {
  const where = { status: 'open' as const };
  const [items, totalCount] = await db.$transaction(
    [
      db.refereeCase.findMany({
        where,
        orderBy: [{ deadline: 'asc' }, { id: 'asc' }],
        skip: window.skip,
        take: window.take,
        select: caseFields,
      }),
      db.refereeCase.count({ where }),
    ],
    { isolationLevel: 'RepeatableRead' },
  );
  return { items, totalCount };
}

/**
 * Every case, open or decided: each is a proof video its challenge's owner refused. Newest
 * first (opened_at, then id for a stable order between equal times).
 */
export async function findCasesPage(
  db: Database,
  window: { skip: number; take: number },
): Promise<{ items: RefereeCaseRecord[]; totalCount: number }> {
  const [items, totalCount] = await db.$transaction(
    [
      db.refereeCase.findMany({
        orderBy: [{ openedAt: 'desc' }, { id: 'desc' }],
        skip: window.skip,
        take: window.take,
        select: caseFields,
      }),
      db.refereeCase.count(),
    ],
    { isolationLevel: 'RepeatableRead' },
  );
  return { items, totalCount };
}

/** Records the decision of an open case; false when it was already decided (by anyone). */
export async function decideCase(
  tx: Transaction,
  id: string,
  decision: { decision: string; comment: string; refereeId: string; now: Date },
): Promise<boolean> {
  const { count } = await tx.refereeCase.updateMany({
    where: { id, status: 'open' },
    data: {
      status: 'decided',
      decision: decision.decision,
      comment: decision.comment,
      refereeId: decision.refereeId,
      decidedAt: decision.now,
    },
  });
  return count === 1;
}

/**
 * Closes the challenge's open cases undecided (its challenge ended another way): answers how
 * many. The same conditional update as a decision's, so of the two one wins.
 */
export async function withdrawOpenCases(
  tx: Transaction,
  challengeId: string,
  now: Date,
): Promise<number> {
  const { count } = await tx.refereeCase.updateMany({
    where: { challengeId, status: 'open' },
    data: { status: 'withdrawn', decidedAt: now },
  });
  return count;
}

/** Any number for the advisory lock, the same in every replica of moderation. */
const ESCALATION_LOCK = 7_242_501;

export async function tryLockEscalation(tx: Transaction): Promise<boolean> {
  const [row] = await tx.$queryRawUnsafe<{ locked: boolean }[]>(
    `SELECT pg_try_advisory_xact_lock(${ESCALATION_LOCK}) AS locked`,
  );
  return row?.locked === true;
}

/**
 * Marks open cases past their deadline as escalated, once each (rows another transaction holds
 * are skipped); returns the ones this call escalated. Not while staff keep the challenge offline:
 * its deadline moves by the offline time when it comes back (docs/adr/0071).
 */
export type EscalatedCase = Pick<
  RefereeCaseRecord,
  'id' | 'challengeId' | 'slug' | 'challengeName' | 'rewardCents' | 'deadline'
> & { performerUsername: string | null };

export async function escalateOverdue(
  tx: Transaction,
  now: Date,
  limit: number,
): Promise<EscalatedCase[]> {
  return tx.$queryRaw<EscalatedCase[]>`
    UPDATE referee_cases SET escalated_at = ${now}
     WHERE id IN (
       SELECT id FROM referee_cases
        WHERE status = 'open' AND escalated_at IS NULL AND deadline <= ${now}
          AND NOT EXISTS (SELECT 1 FROM known_challenges k
                           WHERE k.id = referee_cases.challenge_id AND k.moderation = 'offline')
        ORDER BY deadline
        LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
    RETURNING id::text AS id, challenge_id::text AS "challengeId", slug,
              challenge_name AS "challengeName", reward_cents AS "rewardCents", deadline,
              (SELECT u.username FROM known_users u
                WHERE u.id = referee_cases.performer_id) AS "performerUsername"`;
}

/**
 * An offline spell from `offlineAt` to `now` is over (docs/adr/0071): each open, not escalated
 * case of the challenge whose deadline was still to come gets as much more time.
 */
export async function moveOpenDeadlines(
  tx: Transaction,
  challengeId: string,
  offlineAt: Date,
  now: Date,
): Promise<number> {
  const offlineMs = Math.max(0, now.getTime() - offlineAt.getTime());
  const open = await tx.refereeCase.findMany({
    where: { challengeId, status: 'open', escalatedAt: null, deadline: { gt: offlineAt } },
    select: { id: true, deadline: true },
  });
  for (const { id, deadline } of open) {
    await tx.refereeCase.update({
      where: { id },
      data: { deadline: new Date(deadline.getTime() + offlineMs) },
    });
  }
  return open.length;
}
