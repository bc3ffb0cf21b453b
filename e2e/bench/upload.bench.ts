/**
 * Issue 12: a 500 MB video uploaded through the gateway (a GraphQL multipart request streamed
 * gateway -> media -> MinIO), printed as figures (targets, not asserted):
 *  - peak RSS growth of the gateway process and of the media process during the upload
 *    (target: under 64 MB each);
 *  - the upload's time as a ratio to a direct upload of the same bytes to MinIO with its own
 *    client (target: under 1.5x).
 * Gateway and media each run in a child process of their own; the bytes are generated as they
 * are sent, never held whole nor written to disk.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { stack, testKeys } from '@challenge/testing';
import { Client } from 'minio';
import globalSetup from '../../packages/testing/src/global-setup.ts';
import { streamVideo } from '../support/uploads.ts';
import { sized, startBench } from './lib/results.ts';

/** `node --import tsx upload.bench.ts <bytes>` tries another size. */
const SIZE = Number(process.argv[2] ?? sized(500 * 1000 * 1000, 2 * 1000 * 1000));
const bench = startBench('upload');
const MB = 1024 * 1024;
const MP4_HEAD = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom'),
  Buffer.alloc(20),
]);
const host = fileURLToPath(new URL('./upload-host.ts', import.meta.url));

function start(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(host, args, { execArgv: ['--import', 'tsx', '--expose-gc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: { kind: string; url?: string }) => {
      if (message.kind === 'ready') resolve({ child, url: message.url! });
    });
  });
}

function ask<T>(child: ChildProcess, command: object, answer: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (message: { kind: string }) => {
      if (message.kind !== answer) return;
      child.off('message', listener);
      resolve(message as T);
    };
    child.on('message', listener);
    child.send(command);
  });
}

/** The generated file again, for the direct upload: same head, then zeros. */
function generated(size: number): Readable {
  let sent = 0;
  const chunk = Buffer.alloc(MB);
  return new Readable({
    read() {
      if (sent === 0) {
        this.push(MP4_HEAD);
        sent = MP4_HEAD.length;
        return;
      }
      if (sent >= size) return void this.push(null);
      const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
      sent += piece.length;
      this.push(piece);
    },
  });
}

await globalSetup();
// The servers verify the tokens this process signs.
const keys = JSON.stringify(await testKeys());
const media = await start(['media', keys]);
const gateway = await start(['gateway', keys, media.url]);
const challengeId = randomUUID();
const challengedUserId = randomUUID();
// A challenge of its own for the warm-up: a performer has one live video per challenge.
const warmUpChallengeId = randomUUID();
await ask(media.child, { kind: 'allow', challengeId, challengedUserId }, 'allowed');
await ask(
  media.child,
  { kind: 'allow', challengeId: warmUpChallengeId, challengedUserId },
  'allowed',
);

// Warm-up (connections, JIT, Prisma), then the baselines.
await streamVideo(gateway.url, { id: challengedUserId }, warmUpChallengeId, 2 * MB, MP4_HEAD);
await Promise.all([
  ask(media.child, { kind: 'reset' }, 'reset'),
  ask(gateway.child, { kind: 'reset' }, 'reset'),
]);

const viaGateway = await streamVideo(
  gateway.url,
  { id: challengedUserId },
  challengeId,
  SIZE,
  MP4_HEAD,
);
const result = viaGateway.body.data?.createChallengeVideo;
if (!result?.status.success) throw new Error(`upload failed: ${JSON.stringify(viaGateway.body)}`);
type Peak = { baseline: number; peak: number };
const [mediaPeak, gatewayPeak] = await Promise.all([
  ask<Peak>(media.child, { kind: 'peak' }, 'peak'),
  ask<Peak>(gateway.child, { kind: 'peak' }, 'peak'),
]);

const url = new URL(stack.s3.endpoint);
const client = new Client({
  endPoint: url.hostname,
  port: Number(url.port),
  useSSL: url.protocol === 'https:',
  accessKey: stack.s3.accessKey,
  secretKey: stack.s3.secretKey,
  region: stack.s3.region,
  pathStyle: true,
});
const directKey = `bench/${randomUUID()}.mp4`;
const started = performance.now();
await client.putObject('challenge-media-test', directKey, generated(SIZE), SIZE, {
  'Content-Type': 'video/mp4',
});
const directMs = performance.now() - started;
await client.removeObject('challenge-media-test', directKey);
await client.removeObject('challenge-media-test', `videos/${result.id}/original.mp4`);

const growth = (p: Peak) => (p.peak - p.baseline) / MB;
bench.table({
  title: `Upload of ${SIZE / 1e6} MB: through the gateway (multipart, streamed to media and MinIO) and straight to MinIO`,
  columns: ['path', 'seconds', 'x direct', 'RSS growth gateway MB', 'RSS growth media MB'],
  rows: [
    [
      'through the gateway',
      viaGateway.ms / 1000,
      viaGateway.ms / directMs,
      growth(gatewayPeak),
      growth(mediaPeak),
    ],
    ['direct to MinIO', directMs / 1000, 1, null, null],
  ],
  notes: ['targets (issue 12): under 1.5x the direct upload; RSS growth under 64 MB each'],
});

media.child.send({ kind: 'stop' });
gateway.child.send({ kind: 'stop' });
bench.finish();
