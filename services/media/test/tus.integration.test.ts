import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
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
import { UPLOAD_PART_BYTES } from '../src/data/storage.ts';
import { tryLockSweep } from '../src/data/upload-sessions.ts';
import { transactionRunner } from '../src/data/db.ts';
import { startUploadSweeper, sweepAbandonedSessions } from '../src/domain/resumable.ts';

/**
 * The tus endpoint of media (ADR 36, ADR 51) on the real stack: discovery, the version check,
 * termination and the sweep of abandoned sessions, with MinIO's ListMultipartUploads showing
 * the stored parts gone.
 */

const topicPrefix = uniqueTopicPrefix();
const storageConfig = { ...stack.s3, bucket: 'challenge-media-test' };
const DAY = 24 * 60 * 60 * 1000;
const silent = pino({ level: 'silent' });
let service: TestService<MediaApp>;

beforeAll(async () => {
  service = await startTestService(
    'media',
    (runtime, url) =>
      buildApp(runtime, url, storageConfig, {
        queue: { enqueue: async () => {}, stateOf: async () => 'missing' },
      }),
    { topicPrefix },
  );
});

afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

/** A request to media as the gateway forwards it: with the gateway's credential (ADR 69). */
const toMedia = (url: URL, init: RequestInit = {}) =>
  fetch(url, {
    ...init,
    headers: { ...fromGateway(), ...(init.headers as Record<string, string>) },
  });
const tus = (id?: string) => new URL(id ? `/uploads/tus/${id}` : '/uploads/tus', service.url);
const b64 = (value: string) => Buffer.from(value).toString('base64');
const MP4_HEAD = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom'),
  Buffer.alloc(20),
]);
const deps = () => ({
  db: service.app.db,
  storage: service.app.storage,
  queue: service.app.videoQueue,
  logger: silent,
});

/** A performer of an accepted challenge, with their tus headers. */
async function performer() {
  const user = { id: randomUUID() };
  const challengeId = randomUUID();
  await upsertChallengeAccess(service.app.db, challengeId, {
    ownerId: randomUUID(),
    challengedUserId: user.id,
    status: 'accepted',
    visibility: 'public',
  });
  const headers = { authorization: `Bearer ${await tokenFor(user)}`, 'tus-resumable': '1.0.0' };
  return { user, challengeId, headers };
}

/** Creates a session of 3 parts and stores its first part (the rest stays to send). */
async function sessionWithOnePart(who: Awaited<ReturnType<typeof performer>>) {
  const length = 3 * UPLOAD_PART_BYTES;
  const created = await toMedia(tus(), {
    method: 'POST',
    headers: {
      ...who.headers,
      'upload-length': String(length),
      'upload-metadata': `challengeId ${b64(who.challengeId)},ownVideoConfirmed ${b64('true')}`,
    },
  });
  expect(created.status).toBe(201);
  const id = created.headers.get('location')!.split('/').pop()!;
  const body = Buffer.concat([MP4_HEAD, randomBytes(UPLOAD_PART_BYTES + 100 - MP4_HEAD.length)]);
  const patched = await toMedia(tus(id), {
    method: 'PATCH',
    headers: {
      ...who.headers,
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
    },
    body,
  });
  expect(patched.status).toBe(204);
  expect(patched.headers.get('upload-offset')).toBe(String(UPLOAD_PART_BYTES));
  const row = await service.app.db.videoUploadSession.findUniqueOrThrow({ where: { id } });
  // The part is in the bucket, in an unfinished multipart upload.
  expect(await service.app.storage.listIncompleteUploads(row.objectKey!)).toEqual([row.objectKey]);
  return { id, key: row.objectKey! };
}

describe('the tus protocol itself', () => {
  it('serves the gateway only: without its credential every method is refused with 403 (ADR 69)', async () => {
    const who = await performer();
    for (const method of ['OPTIONS', 'POST', 'HEAD', 'PATCH', 'DELETE']) {
      const answer = await fetch(
        tus(method === 'OPTIONS' || method === 'POST' ? undefined : randomUUID()),
        {
          method,
          headers: {
            ...who.headers,
            'x-gateway-secret': 'not-the-gateway-secret-0123456789abcdef',
          },
        },
      );
      expect(`${method} ${answer.status}`).toBe(`${method} 403`);
    }
  });

  it('OPTIONS describes the server without a caller: version, extensions, maximum size', async () => {
    const answer = await toMedia(tus(), { method: 'OPTIONS' });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('tus-resumable')).toBe('1.0.0');
    expect(answer.headers.get('tus-version')).toBe('1.0.0');
    expect(answer.headers.get('tus-extension')?.split(',')).toEqual(
      expect.arrayContaining(['creation', 'termination', 'expiration']),
    );
    expect(answer.headers.get('tus-max-size')).toBe('500000000');
  });

  it('a request without our Tus-Resumable is refused with 412 and the supported version', async () => {
    const who = await performer();
    const answer = await toMedia(tus(), {
      method: 'POST',
      headers: {
        authorization: who.headers.authorization,
        'tus-resumable': '0.2.2',
        'upload-length': '100',
        'upload-metadata': `challengeId ${b64(who.challengeId)},ownVideoConfirmed ${b64('true')}`,
      },
    });
    expect(answer.status).toBe(412);
    expect(answer.headers.get('tus-version')).toBe('1.0.0');
    expect(answer.headers.get('tus-resumable')).toBe('1.0.0');
    expect(
      await service.app.db.videoUploadSession.count({ where: { uploaderId: who.user.id } }),
    ).toBe(0);
  });

  it('creation answers when the session expires; refusals carry Tus-Resumable too', async () => {
    const who = await performer();
    const created = await toMedia(tus(), {
      method: 'POST',
      headers: {
        ...who.headers,
        'upload-length': '100',
        'upload-metadata': `challengeId ${b64(who.challengeId)},ownVideoConfirmed ${b64('true')}`,
      },
    });
    expect(created.status).toBe(201);
    const expires = Date.parse(created.headers.get('upload-expires') ?? '');
    expect(expires - Date.now()).toBeGreaterThan(DAY - 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(DAY);
    const missing = await toMedia(tus(randomUUID()), { method: 'HEAD', headers: who.headers });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('tus-resumable')).toBe('1.0.0');
  });

  it('409 only for a session in another state than the request assumed; a refusal is 403 (ADR 107)', async () => {
    const who = await performer();
    const { id } = await sessionWithOnePart(who);
    const append = (offset: number, body: Buffer) =>
      toMedia(tus(id), {
        method: 'PATCH',
        headers: {
          ...who.headers,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
        },
        body,
      });
    // A client behind the server (a lost answer): 409, and HEAD tells it where to go on.
    const behind = await append(0, MP4_HEAD);
    expect(behind.status).toBe(409);
    expect(await behind.json()).toMatchObject({ status: { identifier: 'invalid_action' } });
    const head = await toMedia(tus(id), { method: 'HEAD', headers: who.headers });
    expect(head.headers.get('upload-offset')).toBe(String(UPLOAD_PART_BYTES));

    // The challenge ends before the last byte: a refusal, which the client shows at once.
    await upsertChallengeAccess(service.app.db, who.challengeId, { status: 'cancelled' });
    const refused = await append(UPLOAD_PART_BYTES, randomBytes(2 * UPLOAD_PART_BYTES));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ status: { identifier: 'invalid_action' } });
  });
});

describe('termination (cancel)', () => {
  it('the uploader cancels: the S3 multipart upload is aborted and the session is gone', async () => {
    const who = await performer();
    const { id, key } = await sessionWithOnePart(who);
    const answer = await toMedia(tus(id), { method: 'DELETE', headers: who.headers });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('tus-resumable')).toBe('1.0.0');
    expect(await service.app.storage.listIncompleteUploads(key)).toEqual([]);
    expect(await service.app.db.videoUploadSession.findUnique({ where: { id } })).toBeNull();
    expect((await toMedia(tus(id), { method: 'HEAD', headers: who.headers })).status).toBe(404);
    // Once gone, gone: a second DELETE finds nothing.
    expect((await toMedia(tus(id), { method: 'DELETE', headers: who.headers })).status).toBe(404);
  });

  it('only the uploader: anyone else gets 404 and the parts stay', async () => {
    const who = await performer();
    const stranger = await performer();
    const { id, key } = await sessionWithOnePart(who);
    const foreign = await toMedia(tus(id), { method: 'DELETE', headers: stranger.headers });
    expect(foreign.status).toBe(404);
    const anonymous = await toMedia(tus(id), {
      method: 'DELETE',
      headers: { 'tus-resumable': '1.0.0' },
    });
    expect(anonymous.status).toBe(401);
    expect(await service.app.storage.listIncompleteUploads(key)).toEqual([key]);
    expect(await service.app.db.videoUploadSession.findUnique({ where: { id } })).not.toBeNull();
    await toMedia(tus(id), { method: 'DELETE', headers: who.headers });
  });

  it('a session that never stored a byte is cancelled too', async () => {
    const who = await performer();
    const created = await toMedia(tus(), {
      method: 'POST',
      headers: {
        ...who.headers,
        'upload-length': '1000',
        'upload-metadata': `challengeId ${b64(who.challengeId)},ownVideoConfirmed ${b64('true')}`,
      },
    });
    const id = created.headers.get('location')!.split('/').pop()!;
    expect((await toMedia(tus(id), { method: 'DELETE', headers: who.headers })).status).toBe(204);
    expect(await service.app.db.videoUploadSession.findUnique({ where: { id } })).toBeNull();
  });

  it('a finished upload is a video: DELETE refuses it and the video stays', async () => {
    const who = await performer();
    const created = await toMedia(tus(), {
      method: 'POST',
      headers: {
        ...who.headers,
        'upload-length': String(MP4_HEAD.length),
        'upload-metadata': `challengeId ${b64(who.challengeId)},ownVideoConfirmed ${b64('true')}`,
      },
    });
    const id = created.headers.get('location')!.split('/').pop()!;
    const done = await toMedia(tus(id), {
      method: 'PATCH',
      headers: {
        ...who.headers,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': '0',
      },
      body: MP4_HEAD,
    });
    const videoId = done.headers.get('upload-video-id')!;
    expect(videoId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await toMedia(tus(id), { method: 'DELETE', headers: who.headers })).status).toBe(409);
    const video = await service.app.db.challengeVideo.findUniqueOrThrow({ where: { id: videoId } });
    expect(await service.app.storage.statObject(video.originalKey!)).not.toBeNull();
  });
});

describe('the sweep of abandoned sessions', () => {
  /** Moves a session's creation back in time. */
  const age = (id: string, ms: number) =>
    service.app.db.videoUploadSession.update({
      where: { id },
      data: { createdAt: new Date(Date.now() - ms) },
    });

  it('aborts the parts and deletes the sessions older than the age, and only those', async () => {
    const who = await performer();
    const old = await sessionWithOnePart(who);
    const fresh = await sessionWithOnePart(who);
    await age(old.id, DAY + 60_000);
    await age(fresh.id, DAY - 60_000);
    // Another instance holds the lock: this one does nothing.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => undefined;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const other = transactionRunner(service.app.db)(async (tx) => {
      expect(await tryLockSweep(tx)).toBe(true);
      locked();
      await held;
    });
    await lockTaken;
    expect(await sweepAbandonedSessions(deps(), DAY)).toBe(0);
    release();
    await other;
    expect(await service.app.storage.listIncompleteUploads(old.key)).toEqual([old.key]);

    expect(await sweepAbandonedSessions(deps(), DAY)).toBe(1);
    expect(await service.app.storage.listIncompleteUploads(old.key)).toEqual([]);
    expect(
      await service.app.db.videoUploadSession.findUnique({ where: { id: old.id } }),
    ).toBeNull();
    // The fresh one is untouched and can still be finished.
    expect(await service.app.storage.listIncompleteUploads(fresh.key)).toEqual([fresh.key]);
    const head = await toMedia(tus(fresh.id), { method: 'HEAD', headers: who.headers });
    expect(head.headers.get('upload-offset')).toBe(String(UPLOAD_PART_BYTES));
    await toMedia(tus(fresh.id), { method: 'DELETE', headers: who.headers });
  });

  it('a finished session is only forgotten: its video and original stay', async () => {
    const who = await performer();
    const created = await toMedia(tus(), {
      method: 'POST',
      headers: {
        ...who.headers,
        'upload-length': String(MP4_HEAD.length),
        'upload-metadata': `challengeId ${b64(who.challengeId)},ownVideoConfirmed ${b64('true')}`,
      },
    });
    const id = created.headers.get('location')!.split('/').pop()!;
    const done = await toMedia(tus(id), {
      method: 'PATCH',
      headers: {
        ...who.headers,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': '0',
      },
      body: MP4_HEAD,
    });
    const videoId = done.headers.get('upload-video-id')!;
    await age(id, 2 * DAY);
    expect(await sweepAbandonedSessions(deps(), DAY)).toBe(1);
    expect(await service.app.db.videoUploadSession.findUnique({ where: { id } })).toBeNull();
    const video = await service.app.db.challengeVideo.findUniqueOrThrow({ where: { id: videoId } });
    expect(await service.app.storage.statObject(video.originalKey!)).not.toBeNull();
  });

  it('the scheduler runs it, once started (never on its own in tests)', async () => {
    const who = await performer();
    const old = await sessionWithOnePart(who);
    await age(old.id, 2 * DAY);
    const sweeper = startUploadSweeper(deps(), { intervalMs: 50, maxAgeMs: DAY });
    try {
      await eventually(async () => {
        expect(
          await service.app.db.videoUploadSession.findUnique({ where: { id: old.id } }),
        ).toBeNull();
      }, 20_000);
      expect(await service.app.storage.listIncompleteUploads(old.key)).toEqual([]);
    } finally {
      await sweeper.stop();
    }
  });
});
