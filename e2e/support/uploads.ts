import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { tokenFor, type Caller, type GraphQLResponse } from '@challenge/testing';

/**
 * GraphQL multipart requests (spec section 7) as the web sends them: an `operations` part, a
 * `map` part, then the file.
 */

export const CREATE_VIDEO = `mutation ($input: CreateChallengeVideoInput!) {
  createChallengeVideo(input: $input) { id videoSource status { success identifier message } }
}`;

const BOUNDARY = '----challenge-test-boundary-7f3a';
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** The parts before the file's bytes, and the closing boundary after them. */
export function multipartFrame(
  operations: object,
  file: { filename: string; contentType: string },
  fileVariable = 'variables.input.file',
): { head: Buffer; tail: Buffer } {
  const part = (name: string, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head =
    part('operations', JSON.stringify(operations)) +
    part('map', JSON.stringify({ 0: [fileVariable] })) +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="0"; filename="${file.filename}"\r\n` +
    `Content-Type: ${file.contentType}\r\n\r\n`;
  return { head: Buffer.from(head), tail: Buffer.from(`\r\n--${BOUNDARY}--\r\n`) };
}

export const videoOperations = (challengeId: string, ownVideoConfirmed = true) => ({
  query: CREATE_VIDEO,
  variables: { input: { challengeId, ownVideoConfirmed, file: null } },
});

async function authorization(as?: Caller): Promise<Record<string, string>> {
  if (!as) return {};
  return { authorization: `Bearer ${'token' in as ? as.token : await tokenFor(as)}` };
}

/** A multipart upload of `bytes` held in memory (small test videos). */
export async function uploadVideo(
  url: string,
  as: Caller | undefined,
  challengeId: string,
  file: { bytes: Buffer; filename: string; contentType: string },
  ownVideoConfirmed = true,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<GraphQLResponse<Record<string, any>>> {
  const { head, tail } = multipartFrame(videoOperations(challengeId, ownVideoConfirmed), file);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': MULTIPART_TYPE, ...(await authorization(as)) },
    body: Buffer.concat([head, file.bytes, tail]),
  });
  return { httpStatus: response.status, ...((await response.json()) as object) };
}

/**
 * Starts a resumable (tus) upload of `length` bytes through the gateway at `origin`, as the web
 * does: the creation's answer, and the headers every later request of the upload carries.
 */
export async function startTusUpload(
  origin: string,
  as: Caller,
  challengeId: string,
  length: number,
): Promise<{ created: Response; auth: Record<string, string> }> {
  const auth = { ...(await authorization(as)), 'tus-resumable': '1.0.0' };
  const b64 = (value: string) => Buffer.from(value).toString('base64');
  const created = await fetch(new URL('/api/uploads/tus', origin), {
    method: 'POST',
    headers: {
      ...auth,
      'upload-length': String(length),
      'upload-metadata': `challengeId ${b64(challengeId)},ownVideoConfirmed ${b64('true')}`,
    },
  });
  return { created, auth };
}

/**
 * Streams a generated file of `size` bytes (`first` then zeros) in the multipart frame, never
 * held whole nor written to disk. Resolves with the answer as soon as it comes, even while the
 * body is still being sent (a refusal), and with the bytes actually sent.
 */
export function streamVideo(
  url: string,
  as: Caller,
  challengeId: string,
  size: number,
  first: Buffer,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ httpStatus: number; body: any; sentBytes: number; ms: number }> {
  return streamUpload(
    url,
    as,
    multipartFrame(videoOperations(challengeId), { filename: 'big.mp4', contentType: 'video/mp4' }),
    size,
    first,
  );
}

/** streamVideo for any operation: `frame` is multipartFrame's head and tail. */
export async function streamUpload(
  url: string,
  as: Caller,
  { head, tail }: { head: Buffer; tail: Buffer },
  size: number,
  first: Buffer,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ httpStatus: number; body: any; sentBytes: number; ms: number }> {
  const started = performance.now();
  const headers = {
    'content-type': MULTIPART_TYPE,
    'content-length': String(head.length + size + tail.length),
    ...(await authorization(as)),
  };
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const req = request(url, { method: 'POST', headers });
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          httpStatus: res.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          sentBytes,
          ms: performance.now() - started,
        }),
      );
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(1024 * 1024);
    const write = () => {
      if (sentBytes === 0) {
        req.write(head);
        const opening = first.subarray(0, size);
        req.write(opening);
        sentBytes = opening.length;
      }
      while (sentBytes < size && !answered) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sentBytes));
        sentBytes += piece.length;
        if (!req.write(piece)) {
          req.once('drain', write);
          return;
        }
      }
      if (!answered) req.end(tail);
    };
    write();
  });
}

/**
 * Small real videos made by ffmpeg (2 s test pattern with a tone), read into memory. Run
 * asynchronously: the services of the test live in this process, and a blocked event loop
 * misses Kafka heartbeats (the consumer group then rebalances and events wait).
 */
export async function ffmpegVideo(
  format: 'mp4' | 'mov' | 'webm',
  size = '320x240',
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'challenge-video-'));
  const file = path.join(dir, `clip.${format}`);
  const codecs =
    format === 'webm'
      ? ['-c:v', 'libvpx', '-b:v', '200k', '-c:a', 'libvorbis']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'];
  try {
    await promisify(execFile)('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=duration=2:size=${size}:rate=15`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=2',
      ...codecs,
      '-shortest',
      file,
    ]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The smallest valid PNG (1x1), to be passed off as a video. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
