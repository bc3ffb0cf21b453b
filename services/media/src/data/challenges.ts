import type { Database, Transaction } from './db.ts';

/** Media's view of one challenge (the challenge_access projection). */
export interface ChallengeAccessRecord {
  challengeId: string;
  ownerId: string | null;
  challengedUserId: string | null;
  status: string | null;
  visibility: string | null;
  hiddenAt: Date | null;
  /** solo or duel; null (older events) is a solo challenge. */
  challengeType: string | null;
  /** A duel's performers whose side no longer waits for a video. */
  closedSides: string[];
}

const accessFields = {
  challengeId: true,
  ownerId: true,
  challengedUserId: true,
  status: true,
  visibility: true,
  hiddenAt: true,
  challengeType: true,
  closedSides: true,
} as const;

export function findChallengeAccess(
  db: Database | Transaction,
  challengeId: string,
): Promise<ChallengeAccessRecord | null> {
  return db.challengeAccess.findUnique({ where: { challengeId }, select: accessFields });
}

/**
 * The projection row, locked until the transaction ends: an event of the challenge projected
 * meanwhile waits, so what the caller decides on it still holds when it commits.
 */
export async function lockChallengeAccess(
  tx: Transaction,
  challengeId: string,
): Promise<ChallengeAccessRecord | null> {
  await tx.$queryRaw`
    SELECT 1 FROM challenge_access WHERE challenge_id = ${challengeId}::uuid FOR UPDATE`;
  return findChallengeAccess(tx, challengeId);
}

/** What an event tells: undefined leaves a field as it is. */
export type ChallengeAccessChange = Partial<
  Omit<ChallengeAccessRecord, 'challengeId' | 'closedSides'>
> & {
  /** A performer whose duel side no longer waits for a video (added, never removed). */
  closeSideOf?: string;
};

export async function upsertChallengeAccess(
  db: Database | Transaction,
  challengeId: string,
  change: ChallengeAccessChange,
): Promise<void> {
  const { closeSideOf, ...fields } = change;
  const data = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as Omit<ChallengeAccessChange, 'closeSideOf'>;
  await db.challengeAccess.upsert({
    where: { challengeId },
    create: { challengeId, ...data, closedSides: closeSideOf ? [closeSideOf] : [] },
    update: data,
  });
  if (closeSideOf) {
    await db.$executeRaw`
      UPDATE challenge_access
         SET closed_sides = array_append(coalesce(closed_sides, '{}'), ${closeSideOf}::uuid)
       WHERE challenge_id = ${challengeId}::uuid
         AND NOT (${closeSideOf}::uuid = ANY(coalesce(closed_sides, '{}')))`;
  }
}

/**
 * Sets the visibility when `version` is newer than the one the row holds (ChallengeCreated is
 * version 0, each ChallengeVisibilityChanged one more), so that events arriving late or replayed
 * never bring an older visibility back. The row exists (upsertChallengeAccess ran first).
 */
export async function setVisibilityIfNewer(
  db: Database | Transaction,
  challengeId: string,
  visibility: string,
  version: number,
): Promise<boolean> {
  const { count } = await db.challengeAccess.updateMany({
    where: {
      challengeId,
      OR: [{ visibilityVersion: null }, { visibilityVersion: { lt: version } }],
    },
    data: { visibility, visibilityVersion: version },
  });
  return count === 1;
}

/** What a challenge card needs of media: who may see it, and its newest ready thumbnail. */
export interface ChallengeCardMedia {
  access: ChallengeAccessRecord | null;
  thumbnailKey: string | null;
}

interface CardMediaRow {
  id: string;
  known: boolean;
  ownerId: string | null;
  challengedUserId: string | null;
  status: string | null;
  visibility: string | null;
  hiddenAt: Date | null;
  challengeType: string | null;
  closedSides: string[] | null;
  thumbnailKey: string | null;
}

/**
 * The projection row and the thumbnail of the newest ready video of every challenge in ONE
 * query, however many cards a response holds (docs/adr/0056). Ids must be uuids.
 */
export async function findCardMedia(
  db: Database | Transaction,
  challengeIds: readonly string[],
): Promise<Map<string, ChallengeCardMedia>> {
  if (challengeIds.length === 0) return new Map();
  const rows = await db.$queryRaw<CardMediaRow[]>`
    SELECT ids.id::text AS "id", a.challenge_id IS NOT NULL AS "known",
           a.owner_id::text AS "ownerId", a.challenged_user_id::text AS "challengedUserId",
           a.status, a.visibility, a.hidden_at AS "hiddenAt",
           a.challenge_type AS "challengeType", a.closed_sides::text[] AS "closedSides",
           v.thumbnail_key AS "thumbnailKey"
      FROM unnest(${[...challengeIds]}::uuid[]) AS ids(id)
      LEFT JOIN challenge_access a ON a.challenge_id = ids.id
      LEFT JOIN LATERAL (
        SELECT cv.thumbnail_key FROM challenge_videos cv
         WHERE cv.challenge_id = ids.id AND cv.status = 'ready' AND cv.thumbnail_key IS NOT NULL
         ORDER BY cv.created_at DESC, cv.id DESC
         LIMIT 1) v ON true`;
  return new Map(
    rows.map((row) => [
      row.id,
      {
        access: row.known
          ? {
              challengeId: row.id,
              ownerId: row.ownerId,
              challengedUserId: row.challengedUserId,
              status: row.status,
              visibility: row.visibility,
              hiddenAt: row.hiddenAt,
              challengeType: row.challengeType,
              closedSides: row.closedSides ?? [],
            }
          : null,
        thumbnailKey: row.thumbnailKey,
      },
    ]),
  );
}
