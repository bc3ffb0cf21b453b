import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { enqueueEvents, newEvent } from '@challenge/events';
import type { Logger } from 'pino';
import type { Database } from '../data/db.ts';
import { transactionRunner } from '../data/db.ts';
import { UndecodableVideoError, type ProbedVideo, type VideoTools } from '../data/ffmpeg.ts';
import { sampleFrame, toWebp } from '../data/images.ts';
import type { ObjectStorage } from '../data/storage.ts';
import {
  findRecycleCandidates,
  findVideoToProcess,
  markFailed,
  markProcessing,
  markReady,
  type ProcessedVideo,
  type VideoToProcess,
} from '../data/videos.ts';
import {
  FRAME_FRACTIONS,
  MIN_COMPARED_FRAMES,
  MIN_FRAME_STDEV,
  decodeFrameHashes,
  dHash,
  durationWindow,
  encodeFrameHashes,
  findRecycledSource,
  frameBandProbes,
  type FrameHashes,
} from './fingerprint.ts';

/**
 * The processing of one uploaded proof video (docs/adr/0037): download the original (hashing
 * it on the way), probe, transcode to an H.264/AAC MP4 of at most 720p, a WebP thumbnail, the
 * frame hashes of the recycled-proof check (docs/adr/0038), the outputs to the bucket, then the
 * row to ready and VideoProcessed in one transaction. Every step may run again: a retry or a
 * stalled job picked up by another worker starts over and writes the same keys.
 */

export type AspectMode = 'portrait' | 'landscape' | 'square';

/** Within 5 % of a square frame counts as square. */
export function aspectModeOf(width: number, height: number): AspectMode {
  const ratio = width / height;
  if (ratio > 1.05) return 'landscape';
  if (ratio < 1 / 1.05) return 'portrait';
  return 'square';
}

/** The playback rendition's shorter side. */
export const MAX_SHORT_SIDE = 720;

/** At most 720p (the shorter side), never enlarged, both sides even (H.264 with 4:2:0 needs it). */
export function transcodeSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, MAX_SHORT_SIDE / Math.min(width, height));
  const even = (value: number) => Math.max(2, Math.round((value * scale) / 2) * 2);
  return { width: even(width), height: even(height) };
}

export const THUMBNAIL_QUALITY = 80;

export const playbackKey = (videoId: string) => `videos/${videoId}/video.mp4`;
export const thumbnailKey = (videoId: string) => `videos/${videoId}/thumbnail.webp`;

export interface ProcessingSettings {
  /** Parent of the per-job temp dirs. */
  workDir: string;
  /** x264 preset and threads of the transcode (docs/adr/0037). */
  preset: string;
  threads: number;
  /** Upper bound of one ffmpeg or ffprobe run. */
  ffmpegTimeoutMs: number;
  /** What is processed at all (docs/adr/0073): longer, larger or more frames is refused. */
  maxDurationMs: number;
  /** Width x height of the displayed picture. */
  maxPixels: number;
  maxFrames: number;
}

/**
 * The bounds unless configured: ten minutes, 4K (4096 x 2304 covers UHD and DCI in either
 * orientation), ten minutes at 120 frames per second. Beyond them one video would hold a worker
 * for far longer than a proof needs.
 */
export const DEFAULT_BOUNDS = {
  maxDurationMs: 10 * 60 * 1000,
  maxPixels: 4096 * 2304,
  maxFrames: 10 * 60 * 120,
} as const satisfies Partial<ProcessingSettings>;

/** Why a video failed: VideoProcessingFailed's reason, mailed to the uploader. */
export type FailureReason =
  'invalid_video' | 'processing_failed' | 'video_too_long' | 'video_too_large';

/** The probe found a video beyond the bounds: refused without transcoding, not retried. */
class VideoOutOfBoundsError extends Error {
  constructor(readonly reason: 'video_too_long' | 'video_too_large') {
    super(reason);
    this.name = 'VideoOutOfBoundsError';
  }
}

/** Why a probed video is beyond the bounds, or null when it is within them. */
export function boundsRefusal(
  probed: Pick<ProbedVideo, 'durationMs' | 'width' | 'height' | 'frameCount'>,
  settings: Pick<ProcessingSettings, 'maxDurationMs' | 'maxPixels' | 'maxFrames'>,
): 'video_too_long' | 'video_too_large' | null {
  if (probed.durationMs > settings.maxDurationMs) return 'video_too_long';
  if (probed.width * probed.height > settings.maxPixels) return 'video_too_large';
  if (probed.frameCount > settings.maxFrames) return 'video_too_large';
  return null;
}

export interface ProcessingDeps {
  db: Database;
  storage: ObjectStorage;
  tools: VideoTools;
  settings: ProcessingSettings;
  logger: Logger;
}

export type ProcessingOutcome = 'ready' | 'failed' | 'skipped';

/** Streams the object to a file, hashing it on the way: never the whole video in memory. */
async function downloadHashed(storage: ObjectStorage, key: string, file: string): Promise<string> {
  const hash = createHash('sha256');
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  await pipeline(await storage.getObject(key), tee, createWriteStream(file));
  return hash.digest('hex');
}

interface Frames {
  hashes: FrameHashes;
  /** The first frame that was extracted: the thumbnail's source. */
  thumbnailSource: string | null;
}

async function sampleFrames(
  deps: ProcessingDeps,
  original: string,
  dir: string,
  durationMs: number,
): Promise<Frames> {
  const hashes: FrameHashes = [];
  let thumbnailSource: string | null = null;
  for (const [index, fraction] of FRAME_FRACTIONS.entries()) {
    const file = path.join(dir, `frame-${index}.png`);
    await deps.tools.extractFrame(
      original,
      file,
      (durationMs * fraction) / 1000,
      deps.settings.ffmpegTimeoutMs,
    );
    // Past the last decodable frame ffmpeg writes nothing and still succeeds.
    if (!existsSync(file)) {
      hashes.push(null);
      continue;
    }
    thumbnailSource ??= file;
    const sample = await sampleFrame(file);
    hashes.push(sample.stdev >= MIN_FRAME_STDEV ? dHash(sample.grid) : null);
  }
  return { hashes, thumbnailSource };
}

/**
 * Fails the video (unless it is ready or failed already) and publishes VideoProcessingFailed in
 * the same transaction: notification mails the uploader.
 */
export async function failVideo(
  db: Database,
  video: Pick<VideoToProcess, 'id' | 'challengeId' | 'uploaderId'>,
  reason: FailureReason,
): Promise<void> {
  await transactionRunner(db)(async (tx) => {
    if (!(await markFailed(tx, video.id, reason))) return;
    await enqueueEvents(tx, [
      newEvent('VideoProcessingFailed', {
        aggregateId: video.id,
        actorId: video.uploaderId,
        data: {
          videoId: video.id,
          challengeId: video.challengeId,
          uploadedBy: video.uploaderId,
          reason,
        },
      }),
    ]);
  });
}

async function produce(
  deps: ProcessingDeps,
  video: VideoToProcess,
  dir: string,
): Promise<ProcessedVideo> {
  const { tools, settings, storage } = deps;
  const original = path.join(dir, 'original');
  const sha256 = await downloadHashed(storage, video.originalKey, original);
  const probed = await tools.probe(original, settings.ffmpegTimeoutMs);
  const refusal = boundsRefusal(probed, settings);
  if (refusal) throw new VideoOutOfBoundsError(refusal);
  const size = transcodeSize(probed.width, probed.height);
  const mp4 = path.join(dir, 'video.mp4');
  await tools.transcode(original, mp4, {
    ...size,
    preset: settings.preset,
    threads: settings.threads,
    timeoutMs: settings.ffmpegTimeoutMs,
    // A file whose header understates its length is still cut at the bounds.
    maxSeconds: settings.maxDurationMs / 1000,
    maxFrames: settings.maxFrames,
  });
  const frames = await sampleFrames(deps, original, dir, probed.durationMs);
  if (!frames.thumbnailSource) throw new UndecodableVideoError('no frame could be extracted');
  const thumbnail = await toWebp(frames.thumbnailSource, {
    width: size.width,
    quality: THUMBNAIL_QUALITY,
  });

  const window = durationWindow(probed.durationMs);
  const candidates = await findRecycleCandidates(deps.db, {
    videoId: video.id,
    sha256,
    minDurationMs: window.min,
    maxDurationMs: window.max,
    bandProbes: frameBandProbes(frames.hashes),
    minPositions: MIN_COMPARED_FRAMES,
  });
  const source = findRecycledSource(
    {
      challengeId: video.challengeId,
      sha256,
      durationMs: probed.durationMs,
      frames: frames.hashes,
    },
    candidates.map((candidate) => ({
      ...candidate,
      frames: decodeFrameHashes(candidate.frameHashes),
    })),
  );

  await storage.putFile(playbackKey(video.id), mp4, 'video/mp4');
  await storage.putObject(thumbnailKey(video.id), thumbnail, 'image/webp');
  return {
    objectKey: playbackKey(video.id),
    thumbnailKey: thumbnailKey(video.id),
    aspectMode: aspectModeOf(probed.width, probed.height),
    durationMs: probed.durationMs,
    width: probed.width,
    height: probed.height,
    sha256,
    frameHashes: encodeFrameHashes(frames.hashes),
    recycledFromChallengeId: source?.challengeId ?? null,
    recycledFromVideoId: source?.id ?? null,
  };
}

/**
 * Processes one video. Resolves 'ready', 'failed' (the input is not a video ffmpeg can read, or
 * is longer or larger than the bounds: the row is failed and VideoProcessingFailed published,
 * retrying is pointless) or 'skipped' (no
 * such row, or already ready or failed). Rejects on anything that may pass on a retry (storage,
 * database, ffmpeg killed); on the last attempt it fails the row first.
 */
export async function processVideo(
  deps: ProcessingDeps,
  videoId: string,
  options: { lastAttempt: boolean },
): Promise<ProcessingOutcome> {
  const video = await findVideoToProcess(deps.db, videoId);
  if (!video || !(await markProcessing(deps.db, videoId))) {
    deps.logger.info({ videoId, status: video?.status ?? null }, 'nothing to process');
    return 'skipped';
  }
  await mkdir(deps.settings.workDir, { recursive: true });
  const dir = await mkdtemp(path.join(deps.settings.workDir, `video-${videoId}-`));
  try {
    const processed = await produce(deps, video, dir);
    await transactionRunner(deps.db)(async (tx) => {
      if (!(await markReady(tx, video.id, processed))) return;
      await enqueueEvents(tx, [
        newEvent('VideoProcessed', {
          aggregateId: video.id,
          actorId: video.uploaderId,
          data: { videoId: video.id, challengeId: video.challengeId, uploadedBy: video.uploaderId },
        }),
      ]);
    });
    deps.logger.info(
      { videoId, recycledFromChallengeId: processed.recycledFromChallengeId },
      'video processed',
    );
    return 'ready';
  } catch (error) {
    if (error instanceof UndecodableVideoError) {
      deps.logger.warn({ videoId, reason: error.message }, 'video cannot be decoded');
      await failVideo(deps.db, video, 'invalid_video');
      return 'failed';
    }
    if (error instanceof VideoOutOfBoundsError) {
      deps.logger.warn({ videoId, reason: error.reason }, 'video beyond the bounds');
      await failVideo(deps.db, video, error.reason);
      return 'failed';
    }
    if (options.lastAttempt) {
      deps.logger.error({ videoId, err: error }, 'video processing gave up');
      await failVideo(deps.db, video, 'processing_failed');
    }
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The queue gave up on a video without `processVideo` closing it (its worker died on it too
 * often): the row fails as processing_failed, once.
 */
export async function giveUpOnVideo(deps: ProcessingDeps, videoId: string): Promise<void> {
  const video = await findVideoToProcess(deps.db, videoId);
  if (video) await failVideo(deps.db, video, 'processing_failed');
}
