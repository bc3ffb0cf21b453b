import { AppError, type AuthUser } from '@challenge/kit';
import { UPLOAD_PART_BYTES } from '../data/storage.ts';
import {
  commitPart,
  findUploadSession,
  insertUploadSession,
  updateUploadSession,
  type UploadSessionRecord,
} from '../data/upload-sessions.ts';
import { insertVideo } from '../data/videos.ts';
import { sniffStream, sniffVideo } from './sniff.ts';
import {
  MAX_VIDEO_BYTES,
  checkMayUpload,
  originalVideoKey,
  uploadFailure,
  type UploadDeps,
} from './uploads.ts';
import { randomUUID } from 'node:crypto';

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
  if (session.videoId) throw new AppError('invalid_action', 'This upload is complete.');
  if (BigInt(offset) !== session.offset) throw new AppError('invalid_action', 'Wrong offset.');
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
        invalidMessage: 'Only mp4, mov and webm videos are allowed.',
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
        throw new AppError('invalid_action', 'Another request is appending to this upload.');
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
    const videoId = /^videos\/([^/]+)\//.exec(key)![1]!;
    await insertVideo(deps.db, {
      id: videoId,
      challengeId: session.challengeId,
      uploaderId: user.id,
      objectKey: key,
      originalKey: key,
      sizeBytes: BigInt(length),
      contentType: session.contentType,
      ownVideoConfirmed: true,
      status: 'uploaded',
    });
    await updateUploadSession(deps.db, id, { videoId });
    await deps.queue.enqueue(videoId).catch((error: unknown) => {
      deps.logger.error({ err: error, videoId }, 'could not enqueue the uploaded video');
    });
    return { offset: length, videoId };
  } catch (error) {
    // A refused type ends the session's upload; a cut connection keeps what was stored.
    const refused = uploadFailure(deps.logger, error);
    if (refused.identifier === 'invalid_file' && session.s3UploadId && session.objectKey) {
      await deps.storage
        .abortMultipart(session.objectKey, session.s3UploadId)
        .catch(() => undefined);
    }
    throw refused;
  }
}
