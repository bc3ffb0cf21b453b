import type { SideStatus } from './generated/enums.ts';
import { findChallengeById, type ChallengeRecord } from './challenges.ts';
import type { Database, Transaction } from './db.ts';

export type { SideStatus };

/** One party's performance in a duel (docs/adr/0032). */
export interface SideRecord {
  challengeId: string;
  performerId: string;
  status: SideStatus;
  videoId: string | null;
  reviewStartedAt: Date | null;
  reason: string | null;
  judgedByReferee: boolean;
  failedComment: string | null;
  /** The performer's proof registered before the expiration date, waiting for its processing. */
  pendingVideoId: string | null;
  pendingVideoAt: Date | null;
}

const sideFields = {
  challengeId: true,
  performerId: true,
  status: true,
  videoId: true,
  reviewStartedAt: true,
  reason: true,
  judgedByReferee: true,
  failedComment: true,
  pendingVideoId: true,
  pendingVideoAt: true,
} as const;

/** Both sides of a duel, made on its acceptance: the owner's and the challenged user's. */
export async function insertSides(
  tx: Transaction,
  challengeId: string,
  performerIds: readonly string[],
): Promise<void> {
  // Raw SQL: Prisma compiles every createMany anew (its plan cache skips them; docs/adr/0104).
  await tx.$executeRaw`
    INSERT INTO challenge_sides (challenge_id, performer_id, updated_at)
    SELECT ${challengeId}::uuid, performer_id, ${new Date()}::timestamp(3)
      FROM unnest(${[...performerIds]}::uuid[]) AS performer_id
    ON CONFLICT DO NOTHING`;
}

export function findSides(db: Database | Transaction, challengeId: string): Promise<SideRecord[]> {
  return db.challengeSide.findMany({
    where: { challengeId },
    select: sideFields,
    orderBy: { performerId: 'asc' },
  });
}

export type SideFields = Partial<
  Pick<
    SideRecord,
    | 'videoId'
    | 'reviewStartedAt'
    | 'reason'
    | 'judgedByReferee'
    | 'failedComment'
    | 'pendingVideoId'
    | 'pendingVideoAt'
  >
>;

/** A side's change, made only while it is still in `from` (the caller holds the duel's lock). */
export async function changeSide(
  tx: Transaction,
  side: Pick<SideRecord, 'challengeId' | 'performerId' | 'status'>,
  to: SideStatus,
  fields: SideFields,
): Promise<SideRecord | null> {
  const [updated] = await tx.challengeSide.updateManyAndReturn({
    where: { challengeId: side.challengeId, performerId: side.performerId, status: side.status },
    data: { ...fields, status: to },
    select: sideFields,
  });
  return updated ?? null;
}

/**
 * A side's registered proof (docs/adr/0071): set while it awaits its video, cleared when media
 * reports that processing failed (only if it is still that video). The caller holds the duel's
 * lock.
 */
export async function setSidePendingVideo(
  tx: Transaction,
  side: Pick<SideRecord, 'challengeId' | 'performerId'>,
  pending: { videoId: string; at: Date } | null,
  onlyIfVideoId?: string,
): Promise<boolean> {
  const { count } = await tx.challengeSide.updateMany({
    where: {
      challengeId: side.challengeId,
      performerId: side.performerId,
      ...(onlyIfVideoId ? { pendingVideoId: onlyIfVideoId } : {}),
    },
    data: { pendingVideoId: pending?.videoId ?? null, pendingVideoAt: pending?.at ?? null },
  });
  return count === 1;
}

/** A side's judging window, moved when its duel comes back online (docs/adr/0071). */
export async function setSideReviewStart(
  tx: Transaction,
  side: Pick<SideRecord, 'challengeId' | 'performerId'>,
  reviewStartedAt: Date,
): Promise<void> {
  await tx.challengeSide.updateMany({
    where: { challengeId: side.challengeId, performerId: side.performerId, status: 'review' },
    data: { reviewStartedAt },
  });
}

/**
 * The challenge, its row locked until the transaction ends: every change of a duel's sides holds
 * it, so two judgements of the two sides cannot both derive the duel's status from stale sides;
 * a proof's registration and the consumers that start or stop the timers hold it too, as does
 * the scheduler (FOR UPDATE SKIP LOCKED), so an expiry never decides on a stale row
 * (docs/adr/0071).
 */
export async function lockChallenge(tx: Transaction, id: string): Promise<ChallengeRecord | null> {
  await tx.$queryRaw`SELECT 1 FROM challenges WHERE id = ${id}::uuid FOR UPDATE`;
  return findChallengeById(tx, id);
}
