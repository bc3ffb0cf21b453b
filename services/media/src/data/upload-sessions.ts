import type { Database, Transaction } from './db.ts';

export interface StoredPart {
  part: number;
  etag: string;
  bytes: number;
}

export interface UploadSessionRecord {
  id: string;
  uploaderId: string;
  challengeId: string;
  length: bigint;
  offset: bigint;
  objectKey: string | null;
  contentType: string | null;
  s3UploadId: string | null;
  parts: StoredPart[];
  videoId: string | null;
  createdAt: Date;
}

export async function insertUploadSession(
  db: Database,
  row: { uploaderId: string; challengeId: string; length: bigint },
): Promise<string> {
  return (await db.videoUploadSession.create({ data: row, select: { id: true } })).id;
}

export async function findUploadSession(
  db: Database,
  id: string,
): Promise<UploadSessionRecord | null> {
  const row = await db.videoUploadSession.findUnique({ where: { id } });
  return row ? { ...row, parts: row.parts as unknown as StoredPart[] } : null;
}

export async function updateUploadSession(
  db: Database,
  id: string,
  change: Partial<
    Omit<UploadSessionRecord, 'id' | 'uploaderId' | 'challengeId' | 'length' | 'createdAt'>
  >,
): Promise<void> {
  const { parts, ...rest } = change;
  await db.videoUploadSession.update({
    where: { id },
    data: { ...rest, ...(parts ? { parts: parts as unknown as object[] } : {}) },
  });
}

/**
 * Marks the session finished with its video (in the transaction that records the video); false
 * when it is gone (cancelled, swept) or finished already.
 */
export async function linkSessionToVideo(
  tx: Transaction,
  id: string,
  videoId: string,
): Promise<boolean> {
  const { count } = await tx.videoUploadSession.updateMany({
    where: { id, videoId: null },
    data: { videoId },
  });
  return count === 1;
}

/**
 * Commits a stored part: only while the offset is still `from` (a second request appending to
 * the same upload at the same time loses, instead of both moving the offset).
 */
export async function commitPart(
  db: Database,
  id: string,
  from: bigint,
  change: { offset: bigint; parts: StoredPart[] },
): Promise<boolean> {
  const { count } = await db.videoUploadSession.updateMany({
    where: { id, offset: from, videoId: null },
    data: { offset: change.offset, parts: change.parts as unknown as object[] },
  });
  return count === 1;
}

/**
 * Removes an unfinished session of `uploaderId` (termination); false when there was none (or it
 * is complete, or another request removed it first).
 */
export async function deleteUnfinishedSession(
  db: Database,
  id: string,
  uploaderId: string,
): Promise<boolean> {
  const { count } = await db.videoUploadSession.deleteMany({
    where: { id, uploaderId, videoId: null },
  });
  return count === 1;
}

/** Removes a session whatever its state (a finished one whose video was refused). */
export async function deleteSession(db: Database, id: string): Promise<void> {
  await db.videoUploadSession.deleteMany({ where: { id } });
}

/** Any number for the advisory lock, the same in every replica of media. */
const SWEEP_LOCK = 7_242_601;

export async function tryLockSweep(tx: Transaction): Promise<boolean> {
  const [row] = await tx.$queryRawUnsafe<{ locked: boolean }[]>(
    `SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}) AS locked`,
  );
  return row?.locked === true;
}

export interface StaleSession {
  id: string;
  objectKey: string | null;
  s3UploadId: string | null;
  finished: boolean;
}

/**
 * Sessions created before `cutoff`, oldest first, locked for this transaction (rows another
 * transaction holds are skipped).
 */
export async function lockStaleSessions(
  tx: Transaction,
  cutoff: Date,
  limit: number,
): Promise<StaleSession[]> {
  return tx.$queryRaw<StaleSession[]>`
    SELECT id::text AS id, object_key AS "objectKey", s3_upload_id AS "s3UploadId",
           (video_id IS NOT NULL) AS finished
      FROM video_upload_sessions
     WHERE created_at < ${cutoff}
     ORDER BY created_at
     LIMIT ${limit}
       FOR UPDATE SKIP LOCKED`;
}

export async function deleteSessions(tx: Transaction, ids: string[]): Promise<void> {
  if (ids.length) await tx.videoUploadSession.deleteMany({ where: { id: { in: ids } } });
}
