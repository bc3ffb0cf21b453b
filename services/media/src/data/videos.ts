import { Prisma } from './generated/client.ts';
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

/** How many of the uploader's videos are on their way (uploaded or processing). */
export function countOpenVideosOf(db: Database | Transaction, uploaderId: string): Promise<number> {
  return db.challengeVideo.count({
    where: { uploaderId, status: { in: ['uploaded', 'processing'] } },
  });
}

/**
 * Videos uploaded or processing since before `cutoff`, oldest first: the sweep asks the queue
 * whether each still has its job (docs/adr/0073).
 */
export function findOpenVideosBefore(
  db: Database | Transaction,
  cutoff: Date,
  limit: number,
): Promise<{ id: string; challengeId: string; uploaderId: string }[]> {
  return db.challengeVideo.findMany({
    where: { status: { in: ['uploaded', 'processing'] }, createdAt: { lt: cutoff } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: limit,
    select: { id: true, challengeId: true, uploaderId: true },
  });
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
  /** A row inserted ready (tests, demo data) may carry its fingerprint (docs/adr/0038). */
  sha256?: string | null;
  durationMs?: number | null;
  frameHashes?: string | null;
}

/** The unique partial index of migration 20261126103000 (docs/adr/0073). */
const ONE_LIVE_VIDEO_INDEX = 'challenge_videos_one_live_per_performer';

/** The uploader has a live video of the challenge already (the unique partial index said so). */
export class SecondLiveVideoError extends Error {
  constructor() {
    super('the uploader has a live video of this challenge');
    this.name = 'SecondLiveVideoError';
  }
}

/**
 * Inserts a video row. A second live (uploaded, processing, ready) video of one uploader for one
 * challenge throws SecondLiveVideoError: the unique partial index decides between two uploads that both passed the check (docs/adr/0073).
 */
export async function insertVideo(
  db: Database | Transaction,
  row: NewVideoRow,
): Promise<VideoRecord> {
  try {
    const video = await db.challengeVideo.create({ data: row, select: videoFields });
    // A row inserted ready (tests, demo data; uploads insert `uploaded`) gets its frame index as
    // markReady gives one (docs/adr/0073).
    if (video.status === 'ready') await recordFrameBands(db, video.id);
    return video;
  } catch (error) {
    if (
      error instanceof Prisma.PrismaClientKnownRequestError &&
      error.code === 'P2002' &&
      JSON.stringify(error.meta ?? {}).includes(ONE_LIVE_VIDEO_INDEX)
    ) {
      throw new SecondLiveVideoError();
    }
    throw error;
  }
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
 * Processed proofs (of any challenge, this video's own included) that could be the same video,
 * oldest first, at any volume (docs/adr/0073): the earliest one with the same SHA-256 (index on
 * sha256), and those of a duration in the window that share a probed frame band at
 * `minPositions` frame positions or more (the primary key of video_frame_bands). The match rule
 * (src/domain/fingerprint.ts) runs on these.
 */
export async function findRecycleCandidates(
  db: Database | Transaction,
  query: {
    videoId: string;
    sha256: string;
    minDurationMs: number;
    maxDurationMs: number;
    bandProbes: number[];
    minPositions: number;
  },
): Promise<RecycleCandidate[]> {
  const near = await db.$queryRaw<{ videoId: string }[]>`
    SELECT video_id::text AS "videoId" FROM video_frame_bands
     WHERE band = ANY(${query.bandProbes}::integer[])
     GROUP BY video_id
    HAVING count(DISTINCT band / ${FRAME_POSITION_SPAN}) >= ${query.minPositions}`;
  const select = { id: true, challengeId: true, sha256: true, durationMs: true, frameHashes: true };
  const ready = { status: 'ready' as const, id: { not: query.videoId } };
  const [identical, similar] = await Promise.all([
    db.challengeVideo.findFirst({
      where: { ...ready, sha256: query.sha256, durationMs: { not: null } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { ...select, createdAt: true },
    }),
    near.length === 0
      ? []
      : db.challengeVideo.findMany({
          where: {
            ...ready,
            id: { in: near.map((row) => row.videoId), not: query.videoId },
            sha256: { not: null },
            durationMs: { gte: query.minDurationMs, lte: query.maxDurationMs },
          },
          select: { ...select, createdAt: true },
        }),
  ]);
  const rows = new Map([...similar, ...(identical ? [identical] : [])].map((row) => [row.id, row]));
  return [...rows.values()]
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
    .map(({ createdAt: _createdAt, ...row }) => ({
      ...row,
      sha256: row.sha256!,
      durationMs: row.durationMs!,
    }));
}

/** A frame position's bands span this range of band numbers (4 bands of 16 bits). */
const FRAME_POSITION_SPAN = 4 * 65536;

/**
 * Indexes the frame bands of a video that just became ready (or was inserted ready), from its
 * stored frame hashes (media_frame_bands, docs/adr/0073). Nothing for any other video.
 */
async function recordFrameBands(db: Database | Transaction, videoId: string): Promise<void> {
  await db.$executeRaw`
    INSERT INTO video_frame_bands (band, video_id)
    SELECT DISTINCT bands.band, v.id
      FROM challenge_videos AS v, unnest(media_frame_bands(v.frame_hashes)) AS bands(band)
     WHERE v.id = ${videoId}::uuid AND v.status = 'ready'
    ON CONFLICT DO NOTHING`;
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
  if (count === 1) await recordFrameBands(tx, id);
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
