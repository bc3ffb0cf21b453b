import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, NUL_REFUSAL } from '@challenge/kit';
import {
  deleteTopics,
  fromGateway,
  stack,
  startTestService,
  tokenFor,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { buildApp, type MediaApp } from '../src/app.ts';
import { upsertChallengeAccess } from '../src/data/challenges.ts';
import type { ObjectStorage } from '../src/data/storage.ts';
import { insertVideo } from '../src/data/videos.ts';
import { createChallengeVideo, type FileUpload, type Upload } from '../src/domain/uploads.ts';

/**
 * One live video per performer and challenge (docs/adr/0073): the database's unique partial index
 * decides between two uploads that both passed the check before their bytes, and the completion
 * of an upload (multipart and tus) re-checks what the creation checked, in the transaction that
 * records the video. The loser gets a catalogue error and leaves no object behind.
 */

const topicPrefix = uniqueTopicPrefix();
const storageConfig = { ...stack.s3, bucket: 'challenge-media-test' };
const silent = pino({ level: 'silent' });
let service: TestService<MediaApp>;
const queued: string[] = [];

beforeAll(async () => {
  service = await startTestService(
    'media',
    (runtime, url) =>
      buildApp(runtime, url, storageConfig, {
        queue: {
          enqueue: async (videoId: string) => void queued.push(videoId),
          stateOf: async () => 'missing' as const,
        },
      }),
    { topicPrefix },
  );
});

afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom'),
  Buffer.alloc(52),
]);
const b64 = (value: string) => Buffer.from(value).toString('base64');
const tus = (id?: string) => new URL(id ? `/uploads/tus/${id}` : '/uploads/tus', service.url);

/** The challenged user of an accepted, public challenge. */
async function performer() {
  const user = { id: randomUUID(), roles: ['user' as const] };
  const challengeId = randomUUID();
  await upsertChallengeAccess(service.app.db, challengeId, {
    ownerId: randomUUID(),
    challengedUserId: user.id,
    status: 'accepted',
    visibility: 'public',
  });
  const token = await tokenFor(user);
  return { user, challengeId, token };
}

type Performer = Awaited<ReturnType<typeof performer>>;

const liveVideos = (who: Performer) =>
  service.app.db.challengeVideo.findMany({
    where: {
      challengeId: who.challengeId,
      uploaderId: who.user.id,
      status: { in: ['uploaded', 'processing', 'ready'] },
    },
  });

/** A tus session of the whole MP4, created (and so checked) but not sent yet. */
async function tusSession(who: Performer): Promise<string> {
  const created = await fetch(tus(), {
    method: 'POST',
    headers: {
      ...fromGateway(),
      authorization: `Bearer ${who.token}`,
      'tus-resumable': '1.0.0',
      'upload-length': String(MP4.length),
      'upload-metadata': `challengeId ${b64(who.challengeId)},ownVideoConfirmed ${b64('true')}`,
    },
  });
  expect(created.status).toBe(201);
  return created.headers.get('location')!.split('/').pop()!;
}

/** Sends the whole file: the completion. */
const completeTus = (who: Performer, id: string) =>
  fetch(tus(id), {
    method: 'PATCH',
    headers: {
      ...fromGateway(),
      authorization: `Bearer ${who.token}`,
      'tus-resumable': '1.0.0',
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
    },
    body: MP4,
  });

/** A GraphQL multipart request of createChallengeVideo straight to media's upload route. */
async function multipartUpload(who: Performer) {
  const response = await sendMultipart(who, who.challengeId);
  expect(response.status).toBe(200);
  const json = (await response.json()) as {
    data: {
      createChallengeVideo: { id: string | null; status: { success: boolean; identifier: string } };
    };
  };
  return json.data.createChallengeVideo;
}

function sendMultipart(who: Performer, challengeId: string) {
  const boundary = '----media-test-boundary';
  const part = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const operations = {
    query: `mutation ($input: CreateChallengeVideoInput!) {
      createChallengeVideo(input: $input) { id status { success identifier message } } }`,
    variables: { input: { challengeId, ownVideoConfirmed: true, file: null } },
  };
  const body = Buffer.concat([
    Buffer.from(
      part('operations', JSON.stringify(operations)) +
        part('map', JSON.stringify({ 0: ['variables.input.file'] })) +
        `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="proof.mp4"\r\n` +
        'Content-Type: video/mp4\r\n\r\n',
    ),
    MP4,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return fetch(new URL('/uploads/graphql', service.url), {
    method: 'POST',
    headers: {
      ...fromGateway(),
      authorization: `Bearer ${who.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
  });
}

/**
 * An Upload whose file arrives when the test says so, and which tells when the resolver asks for
 * it: by then the upload has passed every check made before the bytes.
 */
function heldUpload() {
  let asked: () => void = () => undefined;
  const askedFor = new Promise<void>((resolve) => (asked = resolve));
  let deliver: (file: FileUpload) => void = () => undefined;
  const file = new Promise<FileUpload>((resolve) => (deliver = resolve));
  const upload = {
    get file() {
      asked();
      return file;
    },
  } as unknown as Upload;
  return {
    upload,
    askedFor,
    send: (bytes: Buffer) =>
      deliver({ filename: 'proof.mp4', mimeType: 'video/mp4', stream: Readable.from([bytes]) }),
  };
}

/** The store, noting the key of every object an upload writes. */
function recordingStorage(keys: string[]): ObjectStorage {
  const storage = service.app.storage;
  return {
    ...storage,
    uploadStream: (key, body, contentType) => {
      keys.push(key);
      return storage.uploadStream(key, body, contentType);
    },
  };
}

describe('the multipart route', () => {
  // It runs the operation itself, outside Apollo, so it makes the subgraphs' check of its own.
  it('refuses a NUL in a variable before the operation runs (PostgreSQL text cannot hold one)', async () => {
    const who = await performer();
    const response = await sendMultipart(who, `${who.challengeId}\u0000`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      errors: [{ message: NUL_REFUSAL, extensions: { identifier: 'invalid_input' } }],
    });
    expect(await liveVideos(who)).toEqual([]);
  });
});

describe('one live video per performer (docs/adr/0073)', () => {
  it('two tus uploads completed at once: one video, the other refused with invalid_action and removed', async () => {
    const who = await performer();
    // Both sessions are created while the performer has no video: both pass the creation check.
    const first = await tusSession(who);
    const second = await tusSession(who);

    const answers = await Promise.all([completeTus(who, first), completeTus(who, second)]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([204, 403]);
    const refused = answers.find((answer) => answer.status === 403)!;
    expect(await refused.json()).toMatchObject({
      status: { success: false, identifier: 'invalid_action' },
    });
    const videos = await liveVideos(who);
    expect(videos).toHaveLength(1);
    const winner = answers.find((answer) => answer.status === 204)!;
    expect(winner.headers.get('upload-video-id')).toBe(videos[0]!.id);
    expect(queued).toContain(videos[0]!.id);

    // The refused session is gone, and so is the object it had completed.
    const refusedId = answers[0]!.status === 403 ? first : second;
    const head = await fetch(tus(refusedId), {
      method: 'HEAD',
      headers: { ...fromGateway(), authorization: `Bearer ${who.token}`, 'tus-resumable': '1.0.0' },
    });
    expect(head.status).toBe(404);
    const sessions = await service.app.db.videoUploadSession.findMany({
      where: { challengeId: who.challengeId },
    });
    expect(sessions.map((session) => session.videoId)).toEqual([videos[0]!.id]);
  });

  it('a multipart upload that passed its check before another completed is refused when it completes, and leaves no object', async () => {
    const who = await performer();
    const keys: string[] = [];
    const held = heldUpload();
    const slow = createChallengeVideo(
      {
        db: service.app.db,
        storage: recordingStorage(keys),
        queue: service.app.videoQueue,
        logger: silent,
      },
      { id: who.user.id, roles: ['user'] } as never,
      { challengeId: who.challengeId, ownVideoConfirmed: true, upload: held.upload },
    );
    slow.catch(() => undefined);
    // The slow upload is past its checks and waits for its bytes.
    await held.askedFor;

    // Meanwhile another upload of the same performer goes through (multipart, over HTTP).
    const fast = await multipartUpload(who);
    expect(fast.status).toMatchObject({ success: true });

    held.send(MP4);
    const error = await slow.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ identifier: 'invalid_action' });
    expect((await liveVideos(who)).map((video) => video.id)).toEqual([fast.id]);
    // Its bytes were stored before the refusal; they are removed again.
    expect(keys).toHaveLength(1);
    expect(await service.app.storage.statObject(keys[0]!)).toBeNull();
  });

  it('a tus upload whose challenge ended, or was hidden, while it was sent is refused at its last byte', async () => {
    const expired = await performer();
    const expiredSession = await tusSession(expired);
    await upsertChallengeAccess(service.app.db, expired.challengeId, { status: 'expired' });
    const late = await completeTus(expired, expiredSession);
    // Its performer hears that it expired, as challenge answers past the date.
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ status: { identifier: 'challenge_expired' } });

    const hidden = await performer();
    const hiddenSession = await tusSession(hidden);
    await upsertChallengeAccess(service.app.db, hidden.challengeId, { hiddenAt: new Date() });
    const refused = await completeTus(hidden, hiddenSession);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ status: { identifier: 'challenge_not_found' } });

    for (const who of [expired, hidden]) expect(await liveVideos(who)).toEqual([]);
  });

  it('an expired challenge: its performer hears challenge_expired, anyone else invalid_action', async () => {
    const who = await performer();
    const owner = { id: randomUUID(), roles: ['user' as const] };
    await upsertChallengeAccess(service.app.db, who.challengeId, {
      status: 'expired',
      ownerId: owner.id,
    });
    expect(await multipartUpload(who)).toMatchObject({
      id: null,
      status: { success: false, identifier: 'challenge_expired' },
    });
    // Its owner sees it (a party) but never sends a solo challenge's proof.
    const asOwner = { ...who, user: owner, token: await tokenFor(owner) };
    expect(await multipartUpload(asOwner)).toMatchObject({
      id: null,
      status: { success: false, identifier: 'invalid_action' },
    });
    expect(await liveVideos(who)).toEqual([]);
  });

  it('a duel side that closed while its video was sent takes no second video', async () => {
    const owner = { id: randomUUID(), roles: ['user' as const] };
    const challengeId = randomUUID();
    await upsertChallengeAccess(service.app.db, challengeId, {
      ownerId: owner.id,
      challengedUserId: randomUUID(),
      status: 'accepted',
      visibility: 'private',
      challengeType: 'duel',
    });
    const who = { user: owner, challengeId, token: await tokenFor(owner) };
    const session = await tusSession(who);
    // The side ended meanwhile (e.g. judged failed for want of a video).
    await upsertChallengeAccess(service.app.db, challengeId, { closeSideOf: owner.id });
    const answer = await completeTus(who, session);
    // A refusal, not the 409 that a tus client takes for an offset to ask again (ADR 107).
    expect(answer.status).toBe(403);
    expect(await liveVideos(who)).toEqual([]);
  });

  it('the database itself refuses a second live video of a performer, and allows one after a failed one', async () => {
    const who = await performer();
    const row = (status: 'uploaded' | 'failed') => ({
      challengeId: who.challengeId,
      uploaderId: who.user.id,
      objectKey: `videos/${randomUUID()}/original.mp4`,
      status,
    });
    await insertVideo(service.app.db, row('failed'));
    await insertVideo(service.app.db, row('uploaded'));
    await expect(insertVideo(service.app.db, row('uploaded'))).rejects.toThrow();
    expect(await liveVideos(who)).toHaveLength(1);
  });
});

describe('an upload right after the acceptance (media hears of it by event)', () => {
  /** A challenge media still knows as open, to be accepted by `user`. */
  async function justAccepted(type: 'solo' | 'duel') {
    const user = { id: randomUUID(), roles: ['user' as const] };
    const challengeId = randomUUID();
    await upsertChallengeAccess(service.app.db, challengeId, {
      ownerId: randomUUID(),
      challengedUserId: user.id,
      status: 'open',
      visibility: 'private',
      challengeType: type,
    });
    return { user, challengeId, token: await tokenFor(user) };
  }

  it('waits a moment for the acceptance to arrive instead of refusing the performer', async () => {
    for (const type of ['solo', 'duel'] as const) {
      const who = await justAccepted(type);
      const accepted = new Promise((resolve) => setTimeout(resolve, 300)).then(() =>
        upsertChallengeAccess(service.app.db, who.challengeId, { status: 'accepted' }),
      );
      const session = await tusSession(who);
      await accepted;
      expect((await completeTus(who, session)).status).toBe(204);
      expect(await liveVideos(who)).toHaveLength(1);
    }
  });

  it('still refuses once the moment has passed, and refuses a stranger', async () => {
    const who = await justAccepted('solo');
    const refusal = await fetch(tus(), {
      method: 'POST',
      headers: {
        ...fromGateway(),
        authorization: `Bearer ${who.token}`,
        'tus-resumable': '1.0.0',
        'upload-length': String(MP4.length),
        'upload-metadata': `challengeId ${b64(who.challengeId)},ownVideoConfirmed ${b64('true')}`,
      },
    });
    expect(refusal.status).toBe(403);
    const stranger = {
      user: { id: randomUUID(), roles: ['user' as const] },
      challengeId: who.challengeId,
    };
    const refused = await fetch(tus(), {
      method: 'POST',
      headers: {
        ...fromGateway(),
        authorization: `Bearer ${await tokenFor(stranger.user)}`,
        'tus-resumable': '1.0.0',
        'upload-length': String(MP4.length),
        'upload-metadata': `challengeId ${b64(who.challengeId)},ownVideoConfirmed ${b64('true')}`,
      },
    });
    expect(refused.status).toBe(404);
  });
});
