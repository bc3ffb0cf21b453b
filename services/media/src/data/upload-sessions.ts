import type { Database } from './db.ts';

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
  change: Partial<Omit<UploadSessionRecord, 'id' | 'uploaderId' | 'challengeId' | 'length'>>,
): Promise<void> {
  const { parts, ...rest } = change;
  await db.videoUploadSession.update({
    where: { id },
    data: { ...rest, ...(parts ? { parts: parts as unknown as object[] } : {}) },
  });
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
