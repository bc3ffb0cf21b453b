import { AppError, type AuthUser } from '@challenge/kit';
import { UPLOAD_PART_BYTES } from '../data/storage.ts';
import {
  commitPart,
  deleteSession,
  deleteSessions,
  deleteUnfinishedSession,
  findUploadSession,
  insertUploadSession,
  linkSessionToVideo,
  lockStaleSessions,
  tryLockSweep,
  updateUploadSession,
  type UploadSessionRecord,
} from '../data/upload-sessions.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import type { ObjectStorage } from '../data/storage.ts';
import type { NewVideoRow } from '../data/videos.ts';
import { queueVideo, reconcileStuckVideos, type VideoProcessingQueue } from './processing-queue.ts';
import { NOT_A_VIDEO, sniffStream, sniffVideo } from './sniff.ts';
import { deleteDueObjects, finishStaleRekeys } from './rekeys.ts';
import {
  MAX_VIDEO_BYTES,
  checkMayUpload,
  originalVideoKey,
  recordUploadedVideo,
  registerProofOrDiscard,
  uploadFailure,
  type UploadDeps,
} from './uploads.ts';
import { randomUUID } from 'node:crypto';
import type { Logger } from '@challenge/kit';

/**
 * Resumable uploads of proof videos (the tus core protocol, ADR 36): a session per file, an S3
 * multipart upload behind it, its offset advanced by each stored part. A cut connection loses
 * only the bytes of the part in progress; the client asks the offset and sends the rest.
 */

export async function createUploadSession(
  deps: UploadDeps,
  user: AuthUser,
  input: { challengeId: string; ownVideoConfirmed: boolean; length: number },
): Promise<string> {
  await checkMayUpload(deps.db, user, input.challengeId);
  if (!input.ownVideoConfirmed) {
    throw new AppError('challenge_video_upload_failed', 'Confirm that the video is your own.');
  }
  if (input.length > MAX_VIDEO_BYTES) throw new AppError('upload_error', 'File is too large');
  if (!Number.isSafeInteger(input.length) || input.length < 1) throw new AppError('invalid_input');
  return insertUploadSession(deps.db, {
    uploaderId: user.id,
    challengeId: input.challengeId,
    length: BigInt(input.length),
  });
}

/** The uploader's session (anyone else: not found). */
export async function ownSession(
  deps: UploadDeps,
  user: AuthUser,
  id: string,
): Promise<UploadSessionRecord> {
  const session = await findUploadSession(deps.db, id);
  if (!session || session.uploaderId !== user.id) throw new AppError('not_found');
  return session;
}

/**
 * The session is not in the state the request assumes: another offset, another request
 * appending, or already complete (tus: 409 Conflict). The client asks HEAD and goes on from
 * there. A refusal of the upload itself stays a plain `invalid_action` (403), which it shows.
 */
export class UploadConflictError extends AppError {
  constructor(message: string) {
    super('invalid_action', message);
    this.name = 'UploadConflictError';
  }
}

export interface AppendResult {
  offset: number;
  videoId: string | null;
}

/**
 * Appends `body` at `offset` (which must be the session's). Whole parts are stored and committed
 * as they fill; the last byte of the file completes the upload, writes the video row and queues
 * it. A body that ends early (or breaks) leaves the offset at the last stored part.
 */
export async function appendToSession(
  deps: UploadDeps,
  user: AuthUser,
  id: string,
  offset: number,
  source: AsyncIterable<Buffer>,
): Promise<AppendResult> {
  const session = await ownSession(deps, user, id);
  if (session.videoId) throw new UploadConflictError('This upload is complete.');
  if (BigInt(offset) !== session.offset) throw new UploadConflictError('Wrong offset.');
  const length = Number(session.length);
  let committed = offset;
  let body: AsyncIterable<Buffer> = source;
  try {
    if (committed === 0) {
      // A first request cut before its first part: start over, without its parts.
      if (session.s3UploadId && session.objectKey) {
        await deps.storage
          .abortMultipart(session.objectKey, session.s3UploadId)
          .catch(() => undefined);
      }
      // The first bytes decide the type; the key carries its extension.
      const sniffed = await sniffStream(source, {
        maxBytes: length,
        sniff: sniffVideo,
        invalidMessage: NOT_A_VIDEO,
      });
      body = sniffed.body;
      const key = originalVideoKey(randomUUID(), sniffed.type.extension);
      session.objectKey = key;
      session.contentType = sniffed.type.contentType;
      session.s3UploadId = await deps.storage.startMultipart(key, sniffed.type.contentType);
      await updateUploadSession(deps.db, id, {
        objectKey: key,
        contentType: session.contentType,
        s3UploadId: session.s3UploadId,
      });
    }
    const key = session.objectKey!;
    const uploadId = session.s3UploadId!;
    const parts = [...session.parts];
    const store = async (payload: Buffer) => {
      const part = parts.length + 1;
      const etag = await deps.storage.uploadPart(key, uploadId, part, payload);
      parts.push({ part, etag, bytes: payload.length });
      const from = BigInt(committed);
      committed += payload.length;
      if (!(await commitPart(deps.db, id, from, { parts, offset: BigInt(committed) }))) {
        throw new UploadConflictError('Another request is appending to this upload.');
      }
    };
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for await (const chunk of body) {
      if (committed + pendingBytes + chunk.length > length) {
        throw new AppError('upload_error', 'More bytes than the upload announced.');
      }
      pending.push(chunk);
      pendingBytes += chunk.length;
      // Parts of exactly UPLOAD_PART_BYTES (but the last): offsets land on part boundaries.
      while (pendingBytes >= UPLOAD_PART_BYTES && committed + pendingBytes < length) {
        const joined = Buffer.concat(pending, pendingBytes);
        const rest = joined.subarray(UPLOAD_PART_BYTES);
        pending = rest.length > 0 ? [rest] : [];
        pendingBytes = rest.length;
        await store(joined.subarray(0, UPLOAD_PART_BYTES));
      }
    }
    if (committed + pendingBytes < length) return { offset: committed, videoId: null };
    await store(Buffer.concat(pending, pendingBytes));
    await deps.storage.completeMultipart(key, uploadId, parts);
    const video = {
      id: /^videos\/([^/]+)\//.exec(key)![1]!,
      challengeId: session.challengeId,
      uploaderId: user.id,
      objectKey: key,
      originalKey: key,
      sizeBytes: BigInt(length),
      contentType: session.contentType,
      ownVideoConfirmed: true,
      status: 'uploaded' as const,
    };
    await recordFinishedSession(deps, user, session, video);
    try {
      await registerProofOrDiscard(deps, {
        videoId: video.id,
        challengeId: session.challengeId,
        performerId: user.id,
        key: video.objectKey,
      });
    } catch (error) {
      // Refused (docs/adr/0071): the session ends with its video; it is linked to it already.
      await deleteSession(deps.db, session.id);
      throw error;
    }
    await queueVideo(deps, video);
    return { offset: length, videoId: video.id };
  } catch (error) {
    // A refused type ends the session's upload; a cut connection keeps what was stored. A
    // session removed meanwhile (cancelled, swept) must not leave the parts this request began.
    const refused = uploadFailure(deps.logger, error);
    if (session.s3UploadId && session.objectKey) {
      const removed =
        refused.identifier === 'invalid_file' ||
        (await findUploadSession(deps.db, id).then(
          (row) => row === null,
          () => false,
        ));
      if (removed) {
        await deps.storage
          .abortMultipart(session.objectKey, session.s3UploadId)
          .catch(() => undefined);
      }
    }
    throw refused;
  }
}

/**
 * The last byte arrived: the video is recorded (re-checked, docs/adr/0073) together with the
 * session's link to it. A refusal (the challenge ended or was hidden meanwhile, the performer's
 * other upload came first, the session was cancelled) removes the completed object and the
 * session, so that the uploader starts over with a new upload if they still may.
 */
async function recordFinishedSession(
  deps: UploadDeps,
  user: AuthUser,
  session: UploadSessionRecord,
  video: NewVideoRow & { id: string },
): Promise<void> {
  try {
    await recordUploadedVideo(deps.db, user, video, async (tx) => {
      if (!(await linkSessionToVideo(tx, session.id, video.id))) {
        throw new AppError('not_found');
      }
    });
  } catch (error) {
    await deps.storage.removeObject(video.objectKey).catch((cause: unknown) => {
      deps.logger.warn({ err: cause, key: video.objectKey }, 'could not remove a refused upload');
    });
    await deleteUnfinishedSession(deps.db, session.id, user.id);
    throw error;
  }
}

/**
 * Termination (tus): the uploader cancels an unfinished upload. Its S3 multipart upload is
 * aborted (the stored parts go) and the session is removed; a finished upload is a video now and
 * stays.
 */
export async function terminateSession(
  deps: UploadDeps,
  user: AuthUser,
  id: string,
): Promise<void> {
  const session = await ownSession(deps, user, id);
  if (session.videoId) throw new UploadConflictError('This upload is complete.');
  // Parts first: if removing the row fails, the sweep finds it and aborts again.
  if (session.s3UploadId && session.objectKey) {
    await deps.storage.abortMultipart(session.objectKey, session.s3UploadId);
  }
  if (!(await deleteUnfinishedSession(deps.db, id, user.id))) throw new AppError('not_found');
}

/** Sessions older than this are abandoned (tus expiration): a day unless configured. */
export const DEFAULT_SESSION_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const SWEEP_BATCH = 25;

export interface SweepDeps {
  db: Database;
  storage: ObjectStorage;
  queue: VideoProcessingQueue;
  logger: Logger;
}

/**
 * One pass of the sweep of abandoned sessions: every session created more than `maxAgeMs` ago
 * has its S3 multipart upload aborted (unless it finished) and its row deleted. Safe with any
 * number of media instances: one holds the advisory lock, the rows are locked while it works.
 * A session whose abort fails stays for the next pass. Answers the sessions removed.
 */
export async function sweepAbandonedSessions(
  deps: SweepDeps,
  maxAgeMs: number,
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - maxAgeMs);
  let total = 0;
  for (;;) {
    const pass = await transactionRunner(deps.db)(async (tx) => {
      if (!(await tryLockSweep(tx))) return null; // another instance is at work
      const stale = await lockStaleSessions(tx, cutoff, SWEEP_BATCH);
      const removed: string[] = [];
      for (const session of stale) {
        try {
          if (!session.finished && session.s3UploadId && session.objectKey) {
            await deps.storage.abortMultipart(session.objectKey, session.s3UploadId);
          }
          removed.push(session.id);
        } catch (error) {
          deps.logger.warn(
            { err: error, sessionId: session.id },
            'could not abort an abandoned upload; trying again at the next pass',
          );
        }
      }
      await deleteSessions(tx, removed);
      return { found: stale.length, removed: removed.length };
    });
    if (pass === null) return total;
    total += pass.removed;
    if (pass.found < SWEEP_BATCH || pass.removed === 0) return total;
  }
}

export interface UploadSweeper {
  stop(): Promise<void>;
}

/**
 * Runs the sweep every `intervalMs` (the first pass after one interval) until stopped; each pass
 * also finishes stale moves and deletes the due objects of moved videos (docs/adr/0065), and
 * queues (or fails) videos the processing queue lost (docs/adr/0073).
 */
export function startUploadSweeper(
  deps: SweepDeps,
  options: { intervalMs: number; maxAgeMs: number; clock?: () => Date },
): UploadSweeper {
  const clock = options.clock ?? (() => new Date());
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = sweepAbandonedSessions(deps, options.maxAgeMs, clock())
      .then((removed) => {
        if (removed > 0) deps.logger.info({ removed }, 'abandoned upload sessions removed');
      })
      // Moves whose event gave up, objects of moved videos a crash left behind, and copies of
      // moves that never committed (docs/adr/0065).
      .then(() => finishStaleRekeys(deps))
      .then(() => deleteDueObjects(deps))
      .then((deleted) => {
        if (deleted > 0) deps.logger.info({ deleted }, 'objects of moved videos deleted');
      })
      // Videos whose job was lost, or given up on without closing the row (docs/adr/0073).
      .then(() => reconcileStuckVideos(deps, clock()))
      .then((videos) => {
        if (videos.queued + videos.failed > 0) deps.logger.warn(videos, 'stuck videos handled');
      })
      .catch((error: unknown) => deps.logger.error({ err: error }, 'upload sweep failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.intervalMs);
      });
  };
  let timer = setTimeout(tick, options.intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
