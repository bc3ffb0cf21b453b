import type { VideoStatus } from './generated/enums.ts';
import type { Database, Transaction } from './db.ts';

export type { VideoStatus };

export interface VideoRecord {
  id: string;
  challengeId: string;
  uploaderId: string;
  objectKey: string;
  thumbnailKey: string | null;
  aspectMode: string;
  status: VideoStatus;
  originalKey: string | null;
  createdAt: Date;
  recycledFromChallengeId: string | null;
}

const videoFields = {
  id: true,
  challengeId: true,
  uploaderId: true,
  objectKey: true,
  thumbnailKey: true,
  aspectMode: true,
  status: true,
  originalKey: true,
  createdAt: true,
  recycledFromChallengeId: true,
} as const;

/** A challenge's videos in one status, newest first. */
export function findVideosOfChallenge(
  db: Database | Transaction,
  challengeId: string,
  status: VideoStatus,
): Promise<VideoRecord[]> {
  return db.challengeVideo.findMany({
    where: { challengeId, status },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: videoFields,
  });
}

/** Whether the challenge has a video in one of these statuses. */
export async function hasVideoOfChallenge(
  db: Database | Transaction,
  challengeId: string,
  statuses: VideoStatus[],
): Promise<boolean> {
  const found = await db.challengeVideo.findFirst({
    where: { challengeId, status: { in: statuses } },
    select: { id: true },
  });
  return found !== null;
}

/**
 * Whether the uploader has a video of the challenge that is on its way or in (uploaded,
 * processing or ready): a performer uploads one proof at a time; a failed one may be replaced.
 */
export async function hasLiveVideoOf(
  db: Database | Transaction,
  challengeId: string,
  uploaderId: string,
): Promise<boolean> {
  const video = await db.challengeVideo.findFirst({
    where: { challengeId, uploaderId, status: { in: ['uploaded', 'processing', 'ready'] } },
    select: { id: true },
  });
  return video !== null;
}

export interface NewVideoRow {
  id?: string;
  challengeId: string;
  uploaderId: string;
  objectKey: string;
  thumbnailKey?: string | null;
  aspectMode?: string;
  status?: VideoStatus;
  originalKey?: string | null;
  sizeBytes?: bigint | null;
  contentType?: string | null;
  ownVideoConfirmed?: boolean;
  createdAt?: Date;
}

export function insertVideo(db: Database | Transaction, row: NewVideoRow): Promise<VideoRecord> {
  return db.challengeVideo.create({ data: row, select: videoFields });
}

/**
 * Removes a video whose upload challenge refused (docs/adr/0071), only while nothing has started
 * on it (status uploaded); false when there was no such row.
 */
export async function deleteUploadedVideo(
  db: Database | Transaction,
  id: string,
): Promise<boolean> {
  const { count } = await db.challengeVideo.deleteMany({ where: { id, status: 'uploaded' } });
  return count === 1;
}

/** What the processing worker needs of a video row. */
export interface VideoToProcess {
  id: string;
  challengeId: string;
  uploaderId: string;
  /** The uploaded original: the row's object key until processing replaces it by the MP4. */
  originalKey: string;
  status: VideoStatus;
}

export async function findVideoToProcess(
  db: Database | Transaction,
  id: string,
): Promise<VideoToProcess | null> {
  const row = await db.challengeVideo.findUnique({
    where: { id },
    select: {
      id: true,
      challengeId: true,
      uploaderId: true,
      objectKey: true,
      originalKey: true,
      status: true,
    },
  });
  return row && { ...row, originalKey: row.originalKey ?? row.objectKey };
}

/** Not yet ready or failed: a job (or its retry, or a stalled job picked up again) may work on it. */
const OPEN_STATUSES: VideoStatus[] = ['uploaded', 'processing'];

/** uploaded -> processing; false when the video is already ready or failed. */
export async function markProcessing(db: Database | Transaction, id: string): Promise<boolean> {
  const { count } = await db.challengeVideo.updateMany({
    where: { id, status: { in: OPEN_STATUSES } },
    data: { status: 'processing' },
  });
  return count === 1;
}

export interface RecycleCandidate {
  id: string;
  challengeId: string;
  sha256: string;
  durationMs: number;
  frameHashes: string | null;
}

/**
 * Processed proofs (of any challenge, this video's own included) that could be the same video:
 * the same SHA-256, or a duration in the window. Oldest first, bounded.
 */
export async function findRecycleCandidates(
  db: Database | Transaction,
  query: { videoId: string; sha256: string; minDurationMs: number; maxDurationMs: number },
  limit = 500,
): Promise<RecycleCandidate[]> {
  const rows = await db.challengeVideo.findMany({
    where: {
      status: 'ready',
      id: { not: query.videoId },
      sha256: { not: null },
      durationMs: { not: null },
      OR: [
        { sha256: query.sha256 },
        { durationMs: { gte: query.minDurationMs, lte: query.maxDurationMs } },
      ],
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: limit,
    select: { id: true, challengeId: true, sha256: true, durationMs: true, frameHashes: true },
  });
  return rows.map((row) => ({ ...row, sha256: row.sha256!, durationMs: row.durationMs! }));
}

export interface ProcessedVideo {
  objectKey: string;
  thumbnailKey: string;
  aspectMode: string;
  durationMs: number;
  width: number;
  height: number;
  sha256: string;
  frameHashes: string;
  recycledFromChallengeId: string | null;
  recycledFromVideoId: string | null;
}

/** processing -> ready with the outputs; false when another run got there first. */
export async function markReady(
  tx: Transaction,
  id: string,
  processed: ProcessedVideo,
): Promise<boolean> {
  const { count } = await tx.challengeVideo.updateMany({
    where: { id, status: { in: OPEN_STATUSES } },
    data: { ...processed, status: 'ready', failureReason: null, processedAt: new Date() },
  });
  return count === 1;
}

/** processing -> failed; false when the video is already ready or failed. */
export async function markFailed(tx: Transaction, id: string, reason: string): Promise<boolean> {
  const { count } = await tx.challengeVideo.updateMany({
    where: { id, status: { in: OPEN_STATUSES } },
    data: { status: 'failed', failureReason: reason, processedAt: new Date() },
  });
  return count === 1;
}
