import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteTopics,
  eventually,
  graphql,
  stack,
  startTestService,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { buildApp, type MediaApp, type MediaProcessingOptions } from '../src/app.ts';
import { createVideoTools } from '../src/data/ffmpeg.ts';
import { VIDEO_QUEUE, createVideoQueue, startVideoWorker } from '../src/data/video-queue.ts';
import { decodeFrameHashes, frameBands } from '../src/domain/fingerprint.ts';
import { giveUpOnVideo, processVideo } from '../src/domain/processing.ts';
import { startUploadSweeper } from '../src/domain/resumable.ts';
import { upsertChallengeAccess } from '../src/data/challenges.ts';
import { insertVideo } from '../src/data/videos.ts';
import { ffprobe, makeClip, topLevelBoxes, type ClipSpec } from './support/videos.ts';

const topicPrefix = uniqueTopicPrefix();
const storageConfig = { ...stack.s3, bucket: 'challenge-media-test' };
const queuePrefix = `test-${randomBytes(4).toString('hex')}`;
let service: TestService<MediaApp>;
/** Reads the jobs (attempts, state) the way an operator would. */
const jobs = new Queue(VIDEO_QUEUE, {
  connection: { url: stack.redisUrl, maxRetriesPerRequest: null },
  prefix: queuePrefix,
});
let scratch: string;
let workDir: string;
const written: string[] = [];

const processing = (): MediaProcessingOptions => ({
  queue: { redisUrl: stack.redisUrl, prefix: queuePrefix, attempts: 2, backoffMs: 200 },
  worker: { concurrency: 1, lockDurationMs: 5_000, stalledIntervalMs: 2_000 },
  settings: { workDir, preset: 'ultrafast', threads: 2, ffmpegTimeoutMs: 60_000, ...bounds },
});
/** The bounds of what is processed (docs/adr/0073): every other clip of this file is within. */
const bounds = { maxDurationMs: 8_000, maxPixels: 1280 * 960, maxFrames: 250 };

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'media-test-'));
  workDir = path.join(scratch, 'work');
  service = await startTestService(
    'media',
    (runtime, url) => buildApp(runtime, url, storageConfig, { processing: processing() }),
    { topicPrefix },
  );
});

afterAll(async () => {
  await service?.stop();
  await jobs.obliterate({ force: true });
  await jobs.close();
  const storage = service?.app.storage;
  await Promise.all(written.map((key) => storage?.removeObject(key).catch(() => undefined)));
  await deleteTopics(topicPrefix);
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const download = async (key: string) => bytesOf(await service.app.storage.getObject(key));

async function clip(name: string, spec: ClipSpec): Promise<string> {
  const file = path.join(scratch, name);
  await makeClip(file, spec);
  return file;
}

/** What the upload path leaves behind: the original in the bucket, a row `uploaded`, a job. */
async function upload(bytes: Buffer, extension: string, challengeId = randomUUID()) {
  const id = randomUUID();
  const uploaderId = randomUUID();
  const objectKey = `videos/${id}/original.${extension}`;
  await service.app.storage.putObject(objectKey, bytes, 'application/octet-stream');
  written.push(objectKey, `videos/${id}/video.mp4`, `videos/${id}/thumbnail.webp`);
  await insertVideo(service.app.db, { id, challengeId, uploaderId, objectKey });
  await service.app.videoQueue.enqueue(id);
  return { id, challengeId, uploaderId, objectKey };
}

const row = (id: string) => service.app.db.challengeVideo.findUniqueOrThrow({ where: { id } });

async function settled(id: string, timeoutMs = 60_000) {
  return eventually(
    async () => {
      const video = await row(id);
      if (video.status !== 'ready' && video.status !== 'failed') {
        throw new Error(`still ${video.status}`);
      }
      return video;
    },
    timeoutMs,
    200,
  );
}

/**
 * The job once the queue has recorded its end: failed for good, or completed. An attempt settles
 * the row before it returns or throws and the queue records the attempt after, so a settled row
 * does not yet mean an ended job.
 */
const endedJob = (queue: Queue, id: string, end: 'failed' | 'completed') =>
  eventually(async () => {
    const job = await queue.getJob(id);
    const ended = end === 'failed' ? await job?.isFailed() : await job?.isCompleted();
    if (!job || !ended) throw new Error(`the job has not ${end} yet`);
    return job;
  });
const failedJob = (queue: Queue, id: string) => endedJob(queue, id, 'failed');

const outbox = (type: string, videoId: string) =>
  service.app.db.outboxEvent
    .findMany({ where: { type } })
    .then((rows) =>
      rows.filter(
        (event) => (event.payload as { data: { videoId: string } }).data.videoId === videoId,
      ),
    );

describe('the video processing worker', () => {
  it.each([
    {
      name: 'a landscape mp4 with sound',
      spec: {
        source: 'testsrc2',
        width: 1280,
        height: 960,
        seconds: 2,
        container: 'mp4',
        toneHz: 440,
      } as const,
      aspectMode: 'landscape',
      size: { width: 960, height: 720 },
    },
    {
      name: 'a portrait mov',
      spec: {
        source: 'mandelbrot',
        width: 360,
        height: 640,
        seconds: 3,
        container: 'mov',
        toneHz: 660,
      } as const,
      aspectMode: 'portrait',
      size: { width: 360, height: 640 },
    },
    {
      name: 'a landscape webm without sound',
      spec: {
        source: 'smptehdbars',
        width: 426,
        height: 240,
        seconds: 4,
        container: 'webm',
      } as const,
      aspectMode: 'landscape',
      size: { width: 426, height: 240 },
    },
    {
      name: 'a phone video stored sideways with a rotation tag',
      spec: {
        source: 'rgbtestsrc',
        width: 320,
        height: 240,
        seconds: 2,
        container: 'mp4',
        toneHz: 330,
        rotate: 90,
      } as const,
      aspectMode: 'portrait',
      size: { width: 240, height: 320 },
    },
  ])('turns $name into a playable H.264/AAC MP4 and a WebP thumbnail', async (example) => {
    const original = await readFile(
      await clip(`${randomUUID()}.${example.spec.container}`, example.spec),
    );
    const { id, challengeId, uploaderId, objectKey } = await upload(
      original,
      example.spec.container,
    );

    const video = await settled(id);
    expect(video.status).toBe('ready');
    expect(video.objectKey).toBe(`videos/${id}/video.mp4`);
    expect(video.thumbnailKey).toBe(`videos/${id}/thumbnail.webp`);
    expect(video.aspectMode).toBe(example.aspectMode);
    expect(Math.abs(video.durationMs! - example.spec.seconds * 1000)).toBeLessThan(150);
    expect([video.width, video.height]).toEqual(
      example.aspectMode === 'portrait' && example.spec.width > example.spec.height
        ? [example.spec.height, example.spec.width]
        : [example.spec.width, example.spec.height],
    );
    expect(video.sha256).toBe(
      (await import('node:crypto')).createHash('sha256').update(original).digest('hex'),
    );
    expect(video.recycledFromChallengeId).toBeNull();

    const mp4 = await download(video.objectKey);
    expect(topLevelBoxes(mp4).indexOf('moov')).toBeLessThan(topLevelBoxes(mp4).indexOf('mdat'));
    const playable = path.join(scratch, `${id}.out.mp4`);
    await writeFile(playable, mp4);
    const probe = await ffprobe(playable);
    expect(probe.formatName).toContain('mp4');
    expect(probe.video).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', ...example.size });
    expect(probe.audio).toEqual(example.spec.toneHz ? { codec: 'aac' } : null);
    expect(Math.abs(probe.durationSeconds - example.spec.seconds)).toBeLessThan(0.2);

    const thumbnail = await sharp(await download(video.thumbnailKey!)).metadata();
    expect(thumbnail.format).toBe('webp');
    expect([thumbnail.width, thumbnail.height]).toEqual([example.size.width, example.size.height]);

    // The original stays for download.
    expect(await download(objectKey)).toEqual(original);
    const [event] = await outbox('VideoProcessed', id);
    expect(event?.payload).toMatchObject({
      type: 'VideoProcessed',
      aggregateId: id,
      actorId: uploaderId,
      data: { videoId: id, challengeId, uploadedBy: uploaderId },
    });
    // The job's temp dir is gone.
    expect(await readdir(workDir)).toEqual([]);
  });

  it('fails a truncated mp4 cleanly, tells the uploader, and keeps working on the next video', async () => {
    const whole = await readFile(
      await clip('whole.mp4', {
        source: 'testsrc',
        width: 320,
        height: 240,
        seconds: 3,
        container: 'mp4',
        toneHz: 500,
      }),
    );
    // Without +faststart the index (moov) is at the end: a cut upload has none.
    const truncated = whole.subarray(0, Math.floor(whole.length * 0.4));
    const broken = await upload(truncated, 'mp4');
    const notAVideo = await upload(Buffer.from('%PDF-1.7 definitely not a video'), 'mp4');

    for (const { id, challengeId, uploaderId } of [broken, notAVideo]) {
      const video = await settled(id);
      expect(video).toMatchObject({ status: 'failed', failureReason: 'invalid_video' });
      expect(await outbox('VideoProcessed', id)).toEqual([]);
      const [event] = await outbox('VideoProcessingFailed', id);
      expect(event?.payload).toMatchObject({
        data: { videoId: id, challengeId, uploadedBy: uploaderId, reason: 'invalid_video' },
      });
      // Not retried: an undecodable video fails at once.
      const job = await jobs.getJob(id);
      expect(job?.attemptsMade).toBeLessThanOrEqual(1);
    }

    const next = await upload(whole, 'mp4');
    expect((await settled(next.id)).status).toBe('ready');
  });

  it("refuses a playlist posing as a video that would read files from the worker's disk", async () => {
    // A file only the worker's machine has, and an HLS playlist (uploaded as .mp4) pointing at it.
    const secret = path.join(scratch, 'secret.ts');
    await makeClip(secret, {
      source: 'testsrc2',
      width: 160,
      height: 120,
      seconds: 1,
      container: 'mp4',
      extra: ['-f', 'mpegts'],
    });
    const playlist = Buffer.from(
      `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nfile://${secret}\n#EXT-X-ENDLIST\n`,
    );
    const { id } = await upload(playlist, 'mp4');
    const video = await settled(id);
    expect(video).toMatchObject({ status: 'failed', failureReason: 'invalid_video' });
  });

  it('retries with backoff what may pass, then gives up as processing_failed', async () => {
    const id = randomUUID();
    const challengeId = randomUUID();
    const uploaderId = randomUUID();
    // The row exists, but its original is not in the bucket (storage trouble, as far as we know).
    await insertVideo(service.app.db, {
      id,
      challengeId,
      uploaderId,
      objectKey: `videos/${id}/original.mp4`,
    });
    await service.app.videoQueue.enqueue(id);

    const video = await settled(id);
    expect(video).toMatchObject({ status: 'failed', failureReason: 'processing_failed' });
    const job = await failedJob(jobs, id);
    expect(job.attemptsMade).toBe(2);
    const events = await outbox('VideoProcessingFailed', id);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({ data: { reason: 'processing_failed' } });
  });

  it('enqueueing a video twice processes it once', async () => {
    const original = await readFile(
      await clip('twice.mp4', {
        source: 'testsrc2',
        width: 160,
        height: 160,
        seconds: 1,
        container: 'mp4',
      }),
    );
    const { id } = await upload(original, 'mp4', randomUUID());
    await service.app.videoQueue.enqueue(id);
    const video = await settled(id);
    expect(video).toMatchObject({ status: 'ready', aspectMode: 'square' });
    expect(await outbox('VideoProcessed', id)).toHaveLength(1);
  });
});

describe('bounds (docs/adr/0073)', () => {
  it.each([
    {
      name: 'longer than the maximum duration',
      spec: { source: 'testsrc2', width: 320, height: 240, seconds: 9, container: 'mp4' } as const,
      reason: 'video_too_long',
    },
    {
      name: 'larger than the maximum resolution',
      spec: {
        source: 'testsrc2',
        width: 1600,
        height: 1200,
        seconds: 1,
        container: 'mp4',
      } as const,
      reason: 'video_too_large',
    },
    {
      name: 'of more frames than the maximum',
      spec: {
        source: 'testsrc2',
        width: 320,
        height: 240,
        seconds: 5,
        container: 'mp4',
        extra: ['-r', '60'] as string[],
      } as const,
      reason: 'video_too_large',
    },
  ])('refuses a video $name before transcoding it, and tells the uploader', async (example) => {
    const original = await readFile(await clip(`${randomUUID()}.mp4`, example.spec));
    const { id, challengeId, uploaderId } = await upload(original, 'mp4');
    const video = await settled(id);
    expect(video).toMatchObject({ status: 'failed', failureReason: example.reason });
    expect(await outbox('VideoProcessed', id)).toEqual([]);
    const [event] = await outbox('VideoProcessingFailed', id);
    expect(event?.payload).toMatchObject({
      data: { videoId: id, challengeId, uploadedBy: uploaderId, reason: example.reason },
    });
    // Refused at the probe: nothing was transcoded, and it is not retried.
    expect(await service.app.storage.statObject(`videos/${id}/video.mp4`)).toBeNull();
    expect((await jobs.getJob(id))?.attemptsMade ?? 0).toBeLessThanOrEqual(1);
  });

  it('an ffmpeg that always times out is tried a bounded number of times, then the uploader is told', async () => {
    // A queue of its own, whose runs are killed by their timeout at once.
    const queue = {
      redisUrl: stack.redisUrl,
      prefix: `${queuePrefix}-timeout`,
      attempts: 2,
      backoffMs: 100,
    };
    const timeoutQueue = createVideoQueue(queue);
    const timeoutJobs = new Queue(VIDEO_QUEUE, {
      connection: { url: stack.redisUrl, maxRetriesPerRequest: null },
      prefix: queue.prefix,
    });
    const deps = {
      db: service.app.db,
      storage: service.app.storage,
      tools: createVideoTools(),
      settings: { workDir, preset: 'ultrafast', threads: 1, ffmpegTimeoutMs: 1, ...bounds },
      logger: service.runtime.logger,
    };
    const worker = startVideoWorker(
      queue,
      { concurrency: 1, lockDurationMs: 5_000, stalledIntervalMs: 2_000, maxStalledCount: 2 },
      {
        process: async (videoId, attempt) => void (await processVideo(deps, videoId, attempt)),
        gaveUp: (videoId) => giveUpOnVideo(deps, videoId),
      },
      deps.logger,
    );
    try {
      const original = await readFile(
        await clip('timeout.mp4', {
          source: 'testsrc2',
          width: 160,
          height: 120,
          seconds: 1,
          container: 'mp4',
        }),
      );
      const id = randomUUID();
      const objectKey = `videos/${id}/original.mp4`;
      await service.app.storage.putObject(objectKey, original, 'video/mp4');
      written.push(objectKey);
      const uploaderId = randomUUID();
      await insertVideo(service.app.db, {
        id,
        challengeId: randomUUID(),
        uploaderId,
        objectKey,
      });
      await timeoutQueue.enqueue(id);
      const video = await settled(id, 30_000);
      expect(video).toMatchObject({ status: 'failed', failureReason: 'processing_failed' });
      const job = await failedJob(timeoutJobs, id);
      expect(job.attemptsMade).toBe(2);
      const events = await outbox('VideoProcessingFailed', id);
      expect(events).toHaveLength(1);
      expect(events[0]?.payload).toMatchObject({ data: { uploadedBy: uploaderId } });
    } finally {
      await worker.close();
      await timeoutQueue.close();
      await timeoutJobs.obliterate({ force: true });
      await timeoutJobs.close();
    }
  });
});

describe('the sweep of videos the queue lost (docs/adr/0073)', () => {
  const sweepDeps = () => ({
    db: service.app.db,
    storage: service.app.storage,
    logger: service.runtime.logger,
    queue: service.app.videoQueue,
  });
  const DAY = 24 * 60 * 60 * 1000;
  const age = (id: string) =>
    service.app.db.challengeVideo.update({
      where: { id },
      data: { createdAt: new Date(Date.now() - 60 * 60 * 1000) },
    });

  it('queues a video whose enqueue was lost (the row without a job), which is then processed', async () => {
    const original = await readFile(
      await clip('lost.mp4', {
        source: 'testsrc2',
        width: 160,
        height: 120,
        seconds: 1,
        container: 'mp4',
      }),
    );
    // What a crash between the row's insert and the enqueue (or Redis down) leaves behind.
    const id = randomUUID();
    const objectKey = `videos/${id}/original.mp4`;
    await service.app.storage.putObject(objectKey, original, 'video/mp4');
    written.push(objectKey, `videos/${id}/video.mp4`, `videos/${id}/thumbnail.webp`);
    await insertVideo(service.app.db, {
      id,
      challengeId: randomUUID(),
      uploaderId: randomUUID(),
      objectKey,
    });
    // A second video, queued as usual: the sweep's re-queue of it adds nothing.
    const queued = await upload(original, 'mp4');
    await Promise.all([age(id), age(queued.id)]);
    expect(await jobs.getJob(id)).toBeUndefined();

    const sweeper = startUploadSweeper(sweepDeps(), { intervalMs: 50, maxAgeMs: DAY });
    try {
      expect((await settled(id, 30_000)).status).toBe('ready');
      expect((await settled(queued.id, 30_000)).status).toBe('ready');
    } finally {
      await sweeper.stop();
    }
    expect(await outbox('VideoProcessed', id)).toHaveLength(1);
    expect(await outbox('VideoProcessed', queued.id)).toHaveLength(1);
  });

  it('fails, and tells the uploader, a video whose job the queue gave up on while its row stayed open', async () => {
    const id = randomUUID();
    const uploaderId = randomUUID();
    const challengeId = randomUUID();
    await insertVideo(service.app.db, {
      id,
      challengeId,
      uploaderId,
      objectKey: `videos/${id}/original.mp4`,
      status: 'processing',
    });
    // A job of this video that failed for good without closing its row (here: a payload the
    // worker refuses, so its `failed` listener has no video to close).
    await jobs.add('process-video', { videoId: 'not a uuid' }, { jobId: id, attempts: 1 });
    await eventually(async () => expect(await jobs.getJobState(id)).toBe('failed'), 20_000);
    await age(id);
    expect((await row(id)).status).toBe('processing');

    const sweeper = startUploadSweeper(sweepDeps(), { intervalMs: 50, maxAgeMs: DAY });
    try {
      const video = await settled(id, 20_000);
      expect(video).toMatchObject({ status: 'failed', failureReason: 'processing_failed' });
    } finally {
      await sweeper.stop();
    }
    const events = await outbox('VideoProcessingFailed', id);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({
      data: { videoId: id, challengeId, uploadedBy: uploaderId, reason: 'processing_failed' },
    });
  });
});

const RECYCLED = /* GraphQL */ `
  query ($r: [_Any!]!) {
    _entities(representations: $r) {
      ... on Challenge {
        challengeVideos {
          id
          recycledFrom {
            challengeId
            challenge {
              id
            }
          }
        }
      }
    }
  }
`;

describe('recycled proof', () => {
  const scene: ClipSpec = {
    source: 'testsrc2',
    width: 640,
    height: 360,
    seconds: 4,
    container: 'mp4',
    toneHz: 220,
  };

  it('flags the same video as proof of a second challenge, and a re-encoded copy, but not another video', async () => {
    const first = await upload(await readFile(await clip('scene.mp4', scene)), 'mp4');
    expect((await settled(first.id)).recycledFromChallengeId).toBeNull();

    // Byte for byte the same file, for another challenge.
    const same = await upload(await readFile(path.join(scratch, 'scene.mp4')), 'mp4');
    // The same picture re-encoded: smaller, another quality, a few frames shorter.
    const copy = await clip('scene-copy.mov', {
      ...scene,
      width: 480,
      height: 270,
      seconds: 3.8,
      container: 'mov',
      extra: ['-crf', '35'],
    });
    const reencoded = await upload(await readFile(copy), 'mov');
    // Another video of the same length.
    const other = await upload(
      await readFile(await clip('other.mp4', { ...scene, source: 'mandelbrot' })),
      'mp4',
    );
    // The same file again for the FIRST challenge (a second take): not recycled from itself.
    const retake = await upload(
      await readFile(path.join(scratch, 'scene.mp4')),
      'mp4',
      first.challengeId,
    );

    expect(await settled(same.id)).toMatchObject({
      status: 'ready',
      recycledFromChallengeId: first.challengeId,
      recycledFromVideoId: first.id,
    });
    expect(await settled(reencoded.id)).toMatchObject({
      status: 'ready',
      recycledFromChallengeId: first.challengeId,
    });
    expect(await settled(other.id)).toMatchObject({
      status: 'ready',
      recycledFromChallengeId: null,
    });
    expect((await settled(retake.id)).recycledFromChallengeId).toBeNull();

    // Visible to the challenge's owner, a referee and staff; not to the uploader or a stranger.
    const ownerId = randomUUID();
    // Media shows a public challenge's videos to anyone (its projection of challenge.v1).
    await upsertChallengeAccess(service.app.db, same.challengeId, {
      ownerId,
      challengedUserId: same.uploaderId,
      status: 'review',
      visibility: 'public',
    });
    const representation = {
      __typename: 'Challenge',
      id: same.challengeId,
      owner: { id: ownerId },
    };
    const ask = (caller?: Parameters<typeof graphql>[3]) =>
      graphql(service.url, RECYCLED, { r: [representation] }, caller);
    const flagged = {
      recycledFrom: { challengeId: first.challengeId, challenge: { id: first.challengeId } },
    };
    for (const caller of [
      { id: ownerId },
      { id: randomUUID(), roles: ['user', 'referee'] as const },
      { id: randomUUID(), roles: ['user', 'moderator'] as const },
      { id: randomUUID(), roles: ['user', 'admin'] as const },
    ]) {
      const { data, errors } = await ask({ ...caller, roles: [...(caller.roles ?? ['user'])] });
      expect(errors).toBeUndefined();
      expect(data!._entities[0].challengeVideos).toEqual([{ id: same.id, ...flagged }]);
    }
    for (const caller of [{ id: same.uploaderId }, { id: randomUUID() }, undefined]) {
      const { data, errors } = await ask(caller);
      expect(errors).toBeUndefined();
      expect(data!._entities[0].challengeVideos).toEqual([{ id: same.id, recycledFrom: null }]);
    }
  });
});

describe('recycled proof at volume (docs/adr/0073)', () => {
  it('finds an earlier proof behind more than 500 older ones of the same length: by SHA-256, and by its frames', async () => {
    // Longer than every other clip of this file: only this test's proofs are of its length.
    const bytes = await readFile(
      await clip('crowded.mp4', {
        source: 'testsrc2',
        width: 320,
        height: 240,
        seconds: 6.5,
        container: 'mp4',
        toneHz: 300,
      }),
    );
    const first = await upload(bytes, 'mp4');
    const earlier = await settled(first.id);
    expect(earlier).toMatchObject({ status: 'ready', recycledFromVideoId: null });

    // 501 proofs of the same length, all older than it, each another picture.
    const hex = (bytes: number) => randomBytes(bytes).toString('hex');
    for (let index = 0; index < 501; index++) {
      await insertVideo(service.app.db, {
        challengeId: randomUUID(),
        uploaderId: randomUUID(),
        objectKey: `videos/${randomUUID()}/video.mp4`,
        status: 'ready',
        sha256: hex(32),
        durationMs: earlier.durationMs,
        frameHashes: Array.from({ length: 5 }, () => hex(8)).join(','),
        createdAt: new Date(Date.now() - 24 * 60 * 60 * 1000 - index * 1000),
      });
    }

    // The same file as the proof of another challenge, and a re-encoded copy of it.
    const copy = path.join(scratch, 'crowded-copy.mov');
    await promisify(execFile)('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-i', path.join(scratch, 'crowded.mp4')],
      ...['-vf', 'scale=240:180', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '35'],
      ...['-c:a', 'aac', copy],
    ]);
    const same = await upload(bytes, 'mp4');
    const reencoded = await upload(await readFile(copy), 'mov');
    expect(await settled(same.id)).toMatchObject({
      recycledFromChallengeId: first.challengeId,
      recycledFromVideoId: first.id,
    });
    expect(await settled(reencoded.id)).toMatchObject({
      recycledFromChallengeId: first.challengeId,
      recycledFromVideoId: first.id,
    });
  });
});

describe('the frame index (docs/adr/0073)', () => {
  it('holds, for a processed proof, the bands frameBands computes from its frame hashes', async () => {
    const { id } = await upload(
      await readFile(
        await clip('banded.mp4', {
          source: 'testsrc',
          width: 320,
          height: 240,
          seconds: 1,
          container: 'mp4',
        }),
      ),
      'mp4',
    );
    const video = await settled(id);
    expect(video.status).toBe('ready');
    const stored = await service.app.db.videoFrameBand.findMany({
      where: { videoId: id },
      orderBy: { band: 'asc' },
    });
    const expected = frameBands(decodeFrameHashes(video.frameHashes));
    expect(expected.length).toBeGreaterThan(0);
    expect(stored.map((row) => row.band)).toEqual([...expected].sort((a, b) => a - b));
  });
});

describe('a worker killed in the middle of a job', () => {
  it('leaves the job to be picked up again by another worker, which finishes it', async () => {
    // A queue of its own, so that the service's worker stays out of it until the kill.
    const queue = {
      redisUrl: stack.redisUrl,
      prefix: `${queuePrefix}-stall`,
      attempts: 2,
      backoffMs: 200,
    };
    const stallQueue = createVideoQueue(queue);
    const stallJobs = new Queue(VIDEO_QUEUE, {
      connection: { url: stack.redisUrl, maxRetriesPerRequest: null },
      prefix: queue.prefix,
    });
    const original = await readFile(
      await clip('stall.mp4', {
        source: 'rgbtestsrc',
        width: 320,
        height: 180,
        seconds: 2,
        container: 'mp4',
        toneHz: 880,
      }),
    );
    const id = randomUUID();
    const objectKey = `videos/${id}/original.mp4`;
    await service.app.storage.putObject(objectKey, original, 'video/mp4');
    written.push(objectKey, `videos/${id}/video.mp4`, `videos/${id}/thumbnail.webp`);
    await insertVideo(service.app.db, {
      id,
      challengeId: randomUUID(),
      uploaderId: randomUUID(),
      objectKey,
    });
    await stallQueue.enqueue(id);

    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(import.meta.dirname, 'support', 'hanging-worker.ts'),
        JSON.stringify({
          databaseUrl: service.database.url,
          storage: storageConfig,
          queue,
          workDir: path.join(scratch, 'killed'),
        }),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    await eventually(() => expect(output).toContain('transcoding'), 30_000);
    expect((await row(id)).status).toBe('processing');
    child.kill('SIGKILL');
    await exited;

    const deps = {
      db: service.app.db,
      storage: service.app.storage,
      tools: createVideoTools(),
      settings: { workDir, preset: 'ultrafast', threads: 2, ffmpegTimeoutMs: 60_000, ...bounds },
      logger: service.runtime.logger,
    };
    const rescuer = startVideoWorker(
      queue,
      { concurrency: 1, lockDurationMs: 2_000, stalledIntervalMs: 1_000, maxStalledCount: 2 },
      {
        process: async (videoId, attempt) => void (await processVideo(deps, videoId, attempt)),
        gaveUp: (videoId) => giveUpOnVideo(deps, videoId),
      },
      deps.logger,
    );
    try {
      const video = await settled(id, 30_000);
      expect(video.status).toBe('ready');
      expect(await outbox('VideoProcessed', id)).toHaveLength(1);
      const job = await endedJob(stallJobs, id, 'completed');
      // Started twice: the killed run and the rescue.
      expect(job?.attemptsStarted).toBe(2);
      expect(job?.failedReason ?? null).toBeNull();
    } finally {
      await rescuer.close();
      await stallQueue.close();
      await stallJobs.obliterate({ force: true });
      await stallJobs.close();
    }
  });
});
