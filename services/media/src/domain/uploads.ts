import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError, type AuthUser, type Logger, type ProofUploadClient } from '@challenge/kit';
import {
  findChallengeAccess,
  lockChallengeAccess,
  type ChallengeAccessRecord,
} from '../data/challenges.ts';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import type { ObjectStorage } from '../data/storage.ts';
import {
  SecondLiveVideoError,
  deleteUploadedVideo,
  hasLiveVideoOf,
  insertVideo,
  type NewVideoRow,
} from '../data/videos.ts';
import { isPerformer, mayUploadProof, mayViewChallenge } from './challenges.ts';
import { queueVideo, type VideoProcessingQueue } from './processing-queue.ts';
import { NOT_A_VIDEO, sniffStream, sniffVideo, UploadRefusal } from './sniff.ts';
import { VIDEO_URL_TTL_SECONDS } from './videos.ts';

/** Spec section 5: at most 500 MB (decimal, as people read it). */
export const MAX_VIDEO_BYTES = 500 * 1000 * 1000;

/** One file of a GraphQL multipart request, as its stream arrives. */
export interface FileUpload {
  filename: string;
  mimeType: string;
  stream: Readable;
}

/**
 * The value of an `Upload` variable: the multipart route creates one per mapped file and settles
 * it when the file's part starts (or the request ends without it). Resolvers await `file`.
 */
export class Upload {
  readonly file: Promise<FileUpload>;
  resolve!: (file: FileUpload) => void;
  reject!: (error: Error) => void;
  constructor() {
    this.file = new Promise<FileUpload>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Rejections are read by whoever awaits the file; none may surface as unhandled.
    this.file.catch(() => undefined);
  }
}

export interface UploadDeps {
  db: Database;
  storage: ObjectStorage;
  queue: VideoProcessingQueue;
  logger: Logger;
  /**
   * Challenge's registration of a completed proof upload (docs/adr/0071); absent only in tests
   * of uploads alone (the composition root always has it).
   */
  proofUploads?: ProofUploadClient | null;
}

export interface CreatedVideo {
  id: string;
  videoSource: string;
}

/** The original's key: videos/<videoId>/original.<ext> (processing adds its outputs beside it). */
export const originalVideoKey = (videoId: string, extension: string) =>
  `videos/${videoId}/original.${extension}`;

/**
 * The challenged user uploads the proof of an accepted challenge: checked before a byte is
 * stored, the type decided from the content, streamed into the store (refused the moment it
 * passes 500 MB, the partial upload aborted), then the row (`uploaded`, checked again as it is
 * recorded) and the processing job.
 */
export async function createChallengeVideo(
  deps: UploadDeps,
  user: AuthUser,
  input: { challengeId: string; ownVideoConfirmed: boolean; upload: Upload },
): Promise<CreatedVideo> {
  await checkMayUpload(deps.db, user, input.challengeId);
  if (!input.ownVideoConfirmed) {
    throw new AppError('challenge_video_upload_failed', 'Confirm that the video is your own.');
  }
  const file = await input.upload.file;
  const videoId = randomUUID();
  let key: string;
  let contentType: string;
  let sizeBytes: number;
  try {
    const { type, body } = await sniffStream(file.stream, {
      maxBytes: MAX_VIDEO_BYTES,
      sniff: sniffVideo,
      invalidMessage: NOT_A_VIDEO,
    });
    key = originalVideoKey(videoId, type.extension);
    contentType = type.contentType;
    sizeBytes = await deps.storage.uploadStream(key, body, contentType);
  } catch (error) {
    throw uploadFailure(deps.logger, error);
  }
  const video = {
    id: videoId,
    challengeId: input.challengeId,
    uploaderId: user.id,
    objectKey: key,
    originalKey: key,
    sizeBytes: BigInt(sizeBytes),
    contentType,
    ownVideoConfirmed: true,
    status: 'uploaded' as const,
  };
  try {
    await recordUploadedVideo(deps.db, user, video);
  } catch (error) {
    // Refused at completion (docs/adr/0073): the stored bytes go again.
    await deps.storage.removeObject(key).catch((cause: unknown) => {
      deps.logger.warn({ err: cause, key }, 'could not remove a refused upload');
    });
    throw error;
  }
  await registerProofOrDiscard(deps, {
    videoId,
    challengeId: input.challengeId,
    performerId: user.id,
    key,
  });
  await queueVideo(deps, video);
  const videoSource = await deps.storage.presignedGetUrl(key, VIDEO_URL_TTL_SECONDS);
  return { id: videoId, videoSource };
}

/** Challenge's answers that say the proof does not count (anything else: not answered). */
const PROOF_REFUSALS: readonly string[] = [
  'challenge_expired',
  'invalid_action',
  'challenge_not_found',
];

/**
 * The upload is complete (every byte stored, its row `uploaded`, nothing queued yet): challenge
 * registers it against the expiration date under the challenge's lock (docs/adr/0071).
 * Refused (challenge_expired, invalid_action, challenge_not_found: nothing was registered), the
 * upload does not count: its row and original are removed and the uploader hears why. Not
 * answered (challenge unreachable, timed out, failed, or a misconfigured token: logged as an
 * error), challenge may have registered it all the same, and a registration must never wait for
 * a video that will not come: the video is kept and processed, as an unregistered one is (it
 * moves the challenge only if it still waits). The row is written first for the same reason: a
 * crash between the two leaves an unregistered video.
 */
export async function registerProofOrDiscard(
  deps: UploadDeps,
  upload: { videoId: string; challengeId: string; performerId: string; key: string },
): Promise<void> {
  if (!deps.proofUploads) return;
  const { key, ...request } = upload;
  try {
    await deps.proofUploads.register(request);
  } catch (error) {
    if (!(error instanceof AppError && PROOF_REFUSALS.includes(error.identifier))) {
      deps.logger.error(
        { err: error, videoId: upload.videoId },
        'challenge did not answer the registration of a proof upload; the video is kept',
      );
      return;
    }
    await deleteUploadedVideo(deps.db, upload.videoId);
    await deps.storage.removeObject(key).catch((removeError: unknown) => {
      deps.logger.warn({ err: removeError, key }, 'could not remove a refused upload');
    });
    throw error;
  }
}

/**
 * Refuses an upload before a byte is stored: challenge_not_found to whoever may not see the
 * challenge, challenge_expired to its performer once it expired, invalid_action to one who may
 * see it but not upload (mayUploadProof), or whose previous video of it is still on its way or
 * already in (one proof at a time per performer).
 */
export async function checkMayUpload(
  db: Database,
  user: AuthUser,
  challengeId: string,
): Promise<void> {
  let access = await findChallengeAccess(db, challengeId);
  // Media hears of an acceptance by event: a performer who uploads at once may be a moment ahead
  // of it. Only then (an open challenge whose challenged user asks) it reads again for a moment
  // before refusing; anyone else is answered at once. Challenge itself decides at the last byte.
  for (const waitMs of ACCEPTANCE_WAITS_MS) {
    if (access?.status !== 'open' || access.challengedUserId !== user.id) break;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    access = await findChallengeAccess(db, challengeId);
  }
  decideMayUpload(access, user);
  if (await hasLiveVideoOf(db, challengeId, user.id)) throw secondVideo();
}

/** About three seconds in all: far more than the event takes, short enough to answer. */
const ACCEPTANCE_WAITS_MS = [100, 200, 300, 400, 500, 500, 500, 500] as const;

function decideMayUpload(access: ChallengeAccessRecord | null, user: AuthUser): void {
  if (!mayViewChallenge(access, user)) throw new AppError('challenge_not_found');
  if (mayUploadProof(access, user)) return;
  // A performer whose challenge ran out hears so, as from challenge's own check past the date:
  // which service learns of the expiry first must not change the answer.
  if (access?.status === 'expired' && isPerformer(access, user)) {
    throw new AppError('challenge_expired');
  }
  throw new AppError('invalid_action');
}

const secondVideo = () =>
  new AppError('invalid_action', 'Your video for this challenge is already in.');

/**
 * Records a stored upload (multipart or tus) as the performer's video, in one transaction that
 * first re-checks what checkMayUpload checked before the bytes: the challenge may have ended,
 * been hidden, or the duel side closed while they streamed (docs/adr/0073). The projection row
 * is locked (FOR UPDATE), so no event of the challenge changes it before the commit; the unique
 * partial index over live videos per (challenge, uploader) decides between two uploads that both
 * passed the check at the same instant (the loser gets invalid_action, never a 500).
 * `alsoInTransaction` runs after the insert (the tus session's link to its video).
 */
export async function recordUploadedVideo(
  db: Database,
  user: AuthUser,
  video: NewVideoRow & { id: string },
  alsoInTransaction?: (tx: Transaction) => Promise<void>,
): Promise<void> {
  await transactionRunner(db)(async (tx) => {
    decideMayUpload(await lockChallengeAccess(tx, video.challengeId), user);
    try {
      await insertVideo(tx, video);
    } catch (error) {
      if (error instanceof SecondLiveVideoError) throw secondVideo();
      throw error;
    }
    await alsoInTransaction?.(tx);
  });
}

/** A refusal to its catalogue error; anything else (store, cut connection) is upload_error. */
export function uploadFailure(logger: Logger, error: unknown): AppError {
  if (error instanceof UploadRefusal) {
    return error.reason === 'invalid_file'
      ? new AppError('invalid_file', error.message)
      : new AppError('upload_error', error.message);
  }
  if (error instanceof AppError) return error;
  logger.warn({ err: error }, 'upload failed');
  return new AppError('upload_error');
}
