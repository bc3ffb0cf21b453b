import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteTopics,
  eventually,
  fromGateway,
  stack,
  startTestService,
  tokenFor,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { buildApp, type MediaApp } from '../src/app.ts';
import { upsertChallengeAccess } from '../src/data/challenges.ts';
import { createVideoTools, type VideoTools } from '../src/data/ffmpeg.ts';
import { VIDEO_QUEUE } from '../src/data/video-queue.ts';
import { DEFAULT_BOUNDS } from '../src/domain/processing.ts';
import { makeClip } from './support/videos.ts';

/**
 * Per-user fairness of the processing queue (docs/adr/0073): one user's many uploads do not hold
 * back another user's single upload by more than the one slot already at work.
 */

const topicPrefix = uniqueTopicPrefix();
const storageConfig = { ...stack.s3, bucket: 'challenge-media-test' };
const queuePrefix = `test-${randomBytes(4).toString('hex')}`;
let service: TestService<MediaApp>;
let scratch: string;

/** The order in which videos reach the transcode; the first one waits there until released. */
const started: string[] = [];
let release: () => void = () => undefined;
const released = new Promise<void>((resolve) => (release = resolve));

function gatedTools(): VideoTools {
  const tools = createVideoTools();
  return {
    ...tools,
    async transcode(input, output, options) {
      // The job's temp dir is video-<id>-<random>.
      started.push(/video-([0-9a-f-]{36})-/.exec(input)![1]!);
      if (started.length === 1) await released;
      await tools.transcode(input, output, options);
    },
  };
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'media-fairness-'));
  service = await startTestService(
    'media',
    (runtime, url) =>
      buildApp(runtime, url, storageConfig, {
        processing: {
          queue: { redisUrl: stack.redisUrl, prefix: queuePrefix, attempts: 2, backoffMs: 200 },
          // One slot: the order of the jobs is the order of processing.
          worker: { concurrency: 1 },
          settings: {
            workDir: path.join(scratch, 'work'),
            preset: 'ultrafast',
            threads: 1,
            ffmpegTimeoutMs: 60_000,
            ...DEFAULT_BOUNDS,
          },
          tools: gatedTools(),
        },
      }),
    { topicPrefix },
  );
});

afterAll(async () => {
  release();
  await service?.stop();
  const jobs = new Queue(VIDEO_QUEUE, {
    connection: { url: stack.redisUrl, maxRetriesPerRequest: null },
    prefix: queuePrefix,
  });
  await jobs.obliterate({ force: true });
  await jobs.close();
  await deleteTopics(topicPrefix);
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const b64 = (value: string) => Buffer.from(value).toString('base64');

/** The challenged user of a new accepted challenge uploads `bytes` through tus. */
async function uploadProof(userId: string, bytes: Buffer): Promise<string> {
  const challengeId = randomUUID();
  await upsertChallengeAccess(service.app.db, challengeId, {
    ownerId: randomUUID(),
    challengedUserId: userId,
    status: 'accepted',
    visibility: 'public',
  });
  const headers = {
    ...fromGateway(),
    authorization: `Bearer ${await tokenFor({ id: userId })}`,
    'tus-resumable': '1.0.0',
  };
  const created = await fetch(new URL('/uploads/tus', service.url), {
    method: 'POST',
    headers: {
      ...headers,
      'upload-length': String(bytes.length),
      'upload-metadata': `challengeId ${b64(challengeId)},ownVideoConfirmed ${b64('true')}`,
    },
  });
  expect(created.status).toBe(201);
  const done = await fetch(new URL(created.headers.get('location')!, service.url), {
    method: 'PATCH',
    headers: {
      ...headers,
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
    },
    body: bytes,
  });
  expect(done.status).toBe(204);
  return done.headers.get('upload-video-id')!;
}

describe('per-user fairness of the processing queue (docs/adr/0073)', () => {
  it("one user's five uploads hold back another user's single upload by one slot at most", async () => {
    const file = path.join(scratch, 'proof.mp4');
    await makeClip(file, {
      source: 'testsrc2',
      width: 160,
      height: 120,
      seconds: 1,
      container: 'mp4',
    });
    const bytes = await readFile(file);
    const busy = randomUUID();
    const other = randomUUID();

    const first = await uploadProof(busy, bytes);
    // The only slot is at work on the busy user's first video...
    await eventually(() => expect(started).toEqual([first]), 30_000);
    // ...while they upload four more, and then the other user their one.
    const more: string[] = [];
    for (let i = 0; i < 4; i++) more.push(await uploadProof(busy, bytes));
    const single = await uploadProof(other, bytes);
    release();

    const all = [first, ...more, single];
    await eventually(async () => {
      const rows = await service.app.db.challengeVideo.findMany({ where: { id: { in: all } } });
      expect(rows.map((row) => row.status)).toEqual(all.map(() => 'ready'));
    }, 150_000);
    // The single upload came right after the slot's video, before the busy user's other four.
    expect(started).toEqual([first, single, ...more]);
  }, 240_000);
});
