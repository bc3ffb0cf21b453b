import type { Database, Transaction } from './db.ts';

/**
 * Moving a challenge's objects to new keys (docs/adr/0065): the request on the projection row,
 * the video rows' keys (compare-and-set), and the objects to delete.
 */

/** Asks for a move of the challenge's objects (in the transaction that hides it or makes it private). */
export async function requestRekey(
  tx: Transaction,
  challengeId: string,
  at: Date = new Date(),
): Promise<void> {
  await tx.challengeAccess.updateMany({ where: { challengeId }, data: { rekeyRequestedAt: at } });
}

/** When the pending move was asked for, or null when none is pending. */
export async function findRekeyRequest(
  db: Database | Transaction,
  challengeId: string,
): Promise<Date | null> {
  const row = await db.challengeAccess.findUnique({
    where: { challengeId },
    select: { rekeyRequestedAt: true },
  });
  return row?.rekeyRequestedAt ?? null;
}

/** Challenges whose move was asked for before `before` and is still pending (oldest first). */
export async function findStaleRekeyRequests(
  db: Database | Transaction,
  before: Date,
  limit: number,
): Promise<string[]> {
  const rows = await db.challengeAccess.findMany({
    where: { rekeyRequestedAt: { lt: before } },
    orderBy: { rekeyRequestedAt: 'asc' },
    take: limit,
    select: { challengeId: true },
  });
  return rows.map((row) => row.challengeId);
}

/** Clears the request it read (a newer request, asked for meanwhile, stays). */
export async function clearRekeyRequest(
  tx: Transaction,
  challengeId: string,
  requestedAt: Date,
): Promise<void> {
  await tx.challengeAccess.updateMany({
    where: { challengeId, rekeyRequestedAt: requestedAt },
    data: { rekeyRequestedAt: null },
  });
}

/** The keys of one video row (null: the video has no such object). */
export interface VideoKeys {
  id: string;
  objectKey: string;
  originalKey: string | null;
  thumbnailKey: string | null;
}

/** Every video of the challenge, whatever its status (an upload's original has a link too). */
export function findVideoKeysOfChallenge(
  db: Database | Transaction,
  challengeId: string,
): Promise<VideoKeys[]> {
  return db.challengeVideo.findMany({
    where: { challengeId },
    orderBy: { id: 'asc' },
    select: { id: true, objectKey: true, originalKey: true, thumbnailKey: true },
  });
}

/**
 * Points the row at `next` when it still holds `current` (processing may have changed a key
 * meanwhile); false when it did not.
 */
export async function swapVideoKeys(
  tx: Transaction,
  current: VideoKeys,
  next: Omit<VideoKeys, 'id'>,
): Promise<boolean> {
  const { count } = await tx.challengeVideo.updateMany({
    where: {
      id: current.id,
      objectKey: current.objectKey,
      originalKey: current.originalKey,
      thumbnailKey: current.thumbnailKey,
    },
    data: next,
  });
  return count === 1;
}

/** Records objects to delete from `notBefore` on (a key listed already keeps its entry). */
export async function scheduleDeletions(
  db: Database | Transaction,
  entries: { key: string; videoId: string }[],
  notBefore: Date,
): Promise<void> {
  if (entries.length === 0) return;
  // Raw SQL: Prisma compiles every createMany anew (its plan cache skips them; docs/adr/0104).
  await db.$executeRaw`
    INSERT INTO object_deletions (key, video_id, not_before)
    SELECT key, video_id, ${notBefore}::timestamp(3)
      FROM unnest(${entries.map((entry) => entry.key)}::text[],
                  ${entries.map((entry) => entry.videoId)}::uuid[]) AS entry(key, video_id)
    ON CONFLICT DO NOTHING`;
}

/** Makes listed keys due at `notBefore` (a move that lost its race: its copies are orphans). */
export async function rescheduleDeletions(
  tx: Transaction,
  keys: string[],
  notBefore: Date,
): Promise<void> {
  if (keys.length === 0) return;
  await tx.objectDeletion.updateMany({ where: { key: { in: keys } }, data: { notBefore } });
}

/**
 * Takes keys off the list (the copies a move commits to). Answers how many were there: fewer
 * than asked means a sweep deleted a copy, and the move must not commit.
 */
export async function cancelDeletions(tx: Transaction, keys: string[]): Promise<number> {
  if (keys.length === 0) return 0;
  const { count } = await tx.objectDeletion.deleteMany({ where: { key: { in: keys } } });
  return count;
}

/** One due entry, locked for the transaction (others skip it). */
export interface DueDeletion {
  key: string;
  /** Whether the video row still points at the key: then the object is kept. */
  referenced: boolean;
}

/** Timestamps are stored as UTC without a zone (Prisma's DateTime). */
export async function lockDueDeletion(tx: Transaction): Promise<DueDeletion | null> {
  const rows = await tx.$queryRaw<DueDeletion[]>`
    SELECT d.key,
           EXISTS (SELECT 1 FROM challenge_videos v
                    WHERE v.id = d.video_id
                      AND d.key IN (v.object_key, v.original_key, v.thumbnail_key)) AS referenced
      FROM object_deletions d
     WHERE d.not_before <= (now() AT TIME ZONE 'UTC')
     ORDER BY d.not_before, d.key
     LIMIT 1
       FOR UPDATE OF d SKIP LOCKED`;
  return rows[0] ?? null;
}

export async function dropDeletion(tx: Transaction, key: string): Promise<void> {
  await tx.objectDeletion.delete({ where: { key } });
}
