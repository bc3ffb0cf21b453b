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
} as const;

/** Both sides of a duel, made on its acceptance: the owner's and the challenged user's. */
export async function insertSides(
  tx: Transaction,
  challengeId: string,
  performerIds: readonly string[],
): Promise<void> {
  await tx.challengeSide.createMany({
    data: performerIds.map((performerId) => ({ challengeId, performerId })),
    skipDuplicates: true,
  });
}

export function findSides(db: Database | Transaction, challengeId: string): Promise<SideRecord[]> {
  return db.challengeSide.findMany({
    where: { challengeId },
    select: sideFields,
    orderBy: { performerId: 'asc' },
  });
}

export type SideFields = Partial<
  Pick<SideRecord, 'videoId' | 'reviewStartedAt' | 'reason' | 'judgedByReferee' | 'failedComment'>
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
 * The challenge, its row locked until the transaction ends: every change of a duel's sides holds
 * it, so two judgements of the two sides cannot both derive the duel's status from stale sides.
 */
export async function lockChallenge(tx: Transaction, id: string): Promise<ChallengeRecord | null> {
  await tx.$queryRaw`SELECT 1 FROM challenges WHERE id = ${id}::uuid FOR UPDATE`;
  return findChallengeById(tx, id);
}
