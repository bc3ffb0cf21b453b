import type { Database, Transaction } from './db.ts';

/** Any number for the advisory lock, the same in every replica of the challenge service. */
const SCHEDULER_LOCK = 7_242_101;

/** True when this transaction holds the scheduler's lock (released at its end). */
export async function tryLockScheduler(tx: Transaction): Promise<boolean> {
  const [row] = await tx.$queryRawUnsafe<{ locked: boolean }[]>(
    `SELECT pg_try_advisory_xact_lock(${SCHEDULER_LOCK}) AS locked`,
  );
  return row?.locked === true;
}

/**
 * Challenges whose time is up, locked for this transaction (rows another transaction holds are
 * skipped, not waited for): open or accepted past their expiration date, and in review past the
 * owner's judging window. A duel after acceptance is lockDueDuels' (its sides decide). Never one
 * staff hid (its timers stand still while offline; a removed one was cancelled), nor an accepted
 * one whose proof was registered before the date and is being processed (docs/adr/0071).
 */
export async function lockDueChallenges(
  tx: Transaction,
  now: Date,
  judgingWindowMs: number,
  limit: number,
): Promise<{ id: string; due: 'expire' | 'judgingWindowElapsed' }[]> {
  const reviewStartedBefore = new Date(now.getTime() - judgingWindowMs);
  return tx.$queryRaw<{ id: string; due: 'expire' | 'judgingWindowElapsed' }[]>`
    SELECT id::text AS id,
           CASE WHEN status = 'review' THEN 'judgingWindowElapsed' ELSE 'expire' END AS due
      FROM challenges
     WHERE moderation IS NULL
       AND ((status = 'open' AND expiration_date <= ${now})
         OR (challenge_type = 'solo' AND status = 'accepted' AND expiration_date <= ${now}
             AND pending_video_id IS NULL)
         OR (challenge_type = 'solo' AND status = 'review'
             AND review_started_at <= ${reviewStartedBefore}))
     ORDER BY expiration_date
     LIMIT ${limit}
       FOR UPDATE SKIP LOCKED`;
}

/**
 * Duels after acceptance whose time is up for a side (docs/adr/0032), locked as above: past the
 * expiration date with a side still waiting for its video (none registered, docs/adr/0071), or a
 * side in review past its judge's window. Never one staff hid.
 */
export async function lockDueDuels(
  tx: Transaction,
  now: Date,
  judgingWindowMs: number,
  limit: number,
): Promise<string[]> {
  const reviewStartedBefore = new Date(now.getTime() - judgingWindowMs);
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT c.id::text AS id
      FROM challenges c
     WHERE c.challenge_type = 'duel' AND c.status IN ('accepted', 'review', 'referee')
       AND c.moderation IS NULL
       AND ((c.expiration_date <= ${now} AND EXISTS (
               SELECT 1 FROM challenge_sides s
                WHERE s.challenge_id = c.id AND s.status = 'awaiting_video'
                  AND s.pending_video_id IS NULL))
         OR EXISTS (
               SELECT 1 FROM challenge_sides s
                WHERE s.challenge_id = c.id AND s.status = 'review'
                  AND s.review_started_at <= ${reviewStartedBefore}))
     ORDER BY c.expiration_date
     LIMIT ${limit}
       FOR UPDATE OF c SKIP LOCKED`;
  return rows.map((row) => row.id);
}

/** Drafts created before `before`: creations that never finished (ADR 27). */
export async function findStaleDrafts(
  db: Database,
  before: Date,
  limit: number,
): Promise<string[]> {
  const rows = await db.challenge.findMany({
    where: { status: 'draft', createdAt: { lt: before } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
    take: limit,
  });
  return rows.map((row) => row.id);
}
