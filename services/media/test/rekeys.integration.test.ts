import { randomBytes, randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, newEvent, type DomainEvent } from '@challenge/events';
import {
  deleteTopics,
  eventually,
  graphql,
  produceRaw,
  stack,
  startTestService,
  uniqueTopicPrefix,
  type Caller,
  type TestService,
} from '@challenge/testing';
import { buildApp, type MediaApp } from '../src/app.ts';
import { upsertChallengeAccess } from '../src/data/challenges.ts';
import { REKEY_QUEUE } from '../src/data/rekey-queue.ts';
import type { ObjectStorage } from '../src/data/storage.ts';
import { insertVideo } from '../src/data/videos.ts';
import { challengeHandlers } from '../src/events/consumers.ts';
import {
  STALE_REKEY_MS,
  deleteDueObjects,
  finishStaleRekeys,
  rekeyChallenge,
  runRekeyJob,
} from '../src/domain/rekeys.ts';

/**
 * A hidden (or newly private) challenge's links stop working at once (docs/adr/0065): its objects
 * move to new keys, the old ones are deleted; staff (and, when private, the parties) get fresh
 * links to the same bytes. Safe under redelivery and crashes.
 */

const topicPrefix = uniqueTopicPrefix();
const storageConfig = { ...stack.s3, bucket: 'challenge-media-test' };
let service: TestService<MediaApp>;
const staff: Caller = { id: randomUUID(), roles: ['moderator'] };

const rekeys = { redisUrl: stack.redisUrl, prefix: `test-${randomBytes(4).toString('hex')}` };

beforeAll(async () => {
  service = await startTestService(
    'media',
    (runtime, url) => buildApp(runtime, url, storageConfig, { rekeys }),
    { topicPrefix },
  );
});

afterAll(async () => {
  await service?.stop();
  const jobs = new Queue(REKEY_QUEUE, {
    connection: { url: rekeys.redisUrl, maxRetriesPerRequest: null },
    prefix: rekeys.prefix,
  });
  await jobs.obliterate({ force: true });
  await jobs.close();
  await deleteTopics(topicPrefix);
});

const VIDEOS = /* GraphQL */ `
  query ($r: [_Any!]!) {
    _entities(representations: $r) {
      ... on Challenge {
        id
        thumbnailUrl
        challengeVideos {
          id
          videoSource
          downloadUrl
          thumbnailUrl
        }
      }
    }
  }
`;

interface Links {
  videoSource: string;
  downloadUrl: string;
  thumbnailUrl: string;
}

async function linksOf(challengeId: string, as?: Caller) {
  const { data, errors } = await graphql(
    service.url,
    VIDEOS,
    { r: [{ __typename: 'Challenge', id: challengeId }] },
    as,
  );
  expect(errors).toBeUndefined();
  return data!._entities[0].challengeVideos as Links[];
}

async function fetched(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
}

/** A ready video with three real objects (playback, original, thumbnail) of a known challenge. */
async function seeded(visibility: 'public' | 'private') {
  const challengeId = randomUUID();
  const ownerId = randomUUID();
  const videoId = randomUUID();
  const objects = {
    [`videos/${videoId}/video.mp4`]: `playback of ${videoId}`,
    [`videos/${videoId}/original.mov`]: `original of ${videoId}`,
    [`videos/${videoId}/thumbnail.webp`]: `thumbnail of ${videoId}`,
  };
  for (const [key, content] of Object.entries(objects)) {
    await service.app.storage.putObject(key, Buffer.from(content), 'video/mp4');
  }
  await upsertChallengeAccess(service.app.db, challengeId, {
    ownerId,
    status: 'review',
    visibility,
  });
  await insertVideo(service.app.db, {
    id: videoId,
    challengeId,
    uploaderId: randomUUID(),
    objectKey: `videos/${videoId}/video.mp4`,
    originalKey: `videos/${videoId}/original.mov`,
    thumbnailKey: `videos/${videoId}/thumbnail.webp`,
    status: 'ready',
  });
  return { challengeId, ownerId, videoId, objects };
}

const keysOf = (videoId: string) =>
  service.app.db.challengeVideo.findUniqueOrThrow({
    where: { id: videoId },
    select: { objectKey: true, originalKey: true, thumbnailKey: true },
  });
const storedKeys = (videoId: string) => service.app.storage.listKeys(`videos/${videoId}/`);
const bodies = async (links: Links) =>
  Promise.all([links.videoSource, links.downloadUrl, links.thumbnailUrl].map(fetched));

const takenOffline = (challengeId: string) =>
  newEvent('ChallengeTakenOffline', {
    aggregateId: challengeId,
    actorId: staff.id,
    data: { challengeId, moderatorId: staff.id, reportId: null },
  });

describe('a hidden challenge: the links handed out before stop working', () => {
  it('taken offline (through Kafka): old links refused, staff get new ones to the same bytes', async () => {
    const { challengeId, videoId, objects } = await seeded('public');
    const [before] = await linksOf(challengeId);
    const beforeBodies = await bodies(before!);
    expect(beforeBodies.map((body) => body.status)).toEqual([200, 200, 200]);
    expect(beforeBodies.map((body) => body.text)).toEqual([
      objects[`videos/${videoId}/video.mp4`],
      objects[`videos/${videoId}/original.mov`],
      objects[`videos/${videoId}/thumbnail.webp`],
    ]);

    await produceRaw(topicPrefix, TOPICS.moderation, [
      { key: challengeId, value: JSON.stringify(takenOffline(challengeId)) },
    ]);
    await eventually(async () => {
      const { status } = await fetched(before!.videoSource);
      if (status === 200) throw new Error('the old link still works');
    }, 30_000);
    for (const old of await bodies(before!)) expect([403, 404]).toContain(old.status);
    expect(await linksOf(challengeId)).toEqual([]);

    const [fresh] = await linksOf(challengeId, staff);
    const freshBodies = await bodies(fresh!);
    expect(freshBodies.map((body) => body.status)).toEqual([200, 200, 200]);
    expect(freshBodies.map((body) => body.text)).toEqual(beforeBodies.map((body) => body.text));
    // The download keeps its file name and extension.
    expect(decodeURIComponent(fresh!.downloadUrl)).toContain(`challenge-video-${videoId}.mov`);
    // Three objects, no more: the old ones are gone, no copy left over.
    const keys = await keysOf(videoId);
    expect((await storedKeys(videoId)).sort()).toEqual(
      [keys.objectKey, keys.originalKey, keys.thumbnailKey].sort(),
    );
    for (const key of Object.keys(objects)) expect(Object.values(keys)).not.toContain(key);
  }, 60_000);

  it('a redelivered event moves nothing a second time', async () => {
    const { challengeId, videoId } = await seeded('public');
    const { hide } = challengeHandlers(inlineJobs(service.app.storage));
    const event = takenOffline(challengeId);
    await hide(event);
    const moved = await keysOf(videoId);
    expect(Object.values(moved)).not.toContain(`videos/${videoId}/video.mp4`);
    const stored = (await storedKeys(videoId)).sort();
    await hide(event);
    await hide(JSON.parse(JSON.stringify(event)) as DomainEvent<'ChallengeTakenOffline'>);
    expect(await keysOf(videoId)).toEqual(moved);
    expect((await storedKeys(videoId)).sort()).toEqual(stored);
    expect(await rekeyChallenge(deps(service.app.storage), challengeId)).toBe(0);
  }, 30_000);

  it('a crash before the commit loses nothing and leaves no orphan; a crash after it is finished by the retry', async () => {
    const { challengeId, videoId, objects } = await seeded('public');
    // The store fails after the first copy (as a process dying mid-move would stop).
    let copies = 0;
    const failingCopy: ObjectStorage = {
      ...service.app.storage,
      async copyObject(from, to) {
        if (++copies > 1) throw new Error('store unreachable');
        return service.app.storage.copyObject(from, to);
      },
    };
    const event = takenOffline(challengeId);
    // The consumer records the move; the job (here run by hand) fails.
    await challengeHandlers({ db: service.app.db, logger: service.runtime.logger }).hide(event);
    await expect(rekeyChallenge(deps(failingCopy), challengeId)).rejects.toThrow(
      'store unreachable',
    );
    // Nothing moved: the row keeps its keys, every old object is there, the stray copy is listed.
    expect(Object.values(await keysOf(videoId)).sort()).toEqual(Object.keys(objects).sort());
    const stray = (await storedKeys(videoId)).filter((key) => !(key in objects));
    expect(stray).toHaveLength(1);
    expect(
      await service.app.db.objectDeletion.findUnique({ where: { key: stray[0]! } }),
    ).not.toBeNull();

    // The retry moves; deleting the old objects fails once (a crash after the commit).
    let removals = 0;
    const failingRemove: ObjectStorage = {
      ...service.app.storage,
      async removeObject(key) {
        if (++removals === 1) throw new Error('store unreachable');
        return service.app.storage.removeObject(key);
      },
    };
    await expect(rekeyChallenge(deps(failingRemove), challengeId)).rejects.toThrow(
      'store unreachable',
    );
    const moved = await keysOf(videoId);
    expect(Object.values(moved)).not.toContain(`videos/${videoId}/video.mp4`);
    // The next retry moves nothing again and deletes what was left.
    expect(await rekeyChallenge(deps(service.app.storage), challengeId)).toBe(0);
    expect(await keysOf(videoId)).toEqual(moved);
    const left = await storedKeys(videoId);
    for (const key of Object.keys(objects)) expect(left).not.toContain(key);
    for (const key of Object.values(moved)) expect(left).toContain(key);
  }, 30_000);

  it('a video processed while it moves is moved again with its new keys; nothing a row points at is deleted', async () => {
    const { challengeId, videoId } = await seeded('public');
    await service.app.db.challengeVideo.update({
      where: { id: videoId },
      data: {
        status: 'processing',
        objectKey: `videos/${videoId}/original.mov`,
        thumbnailKey: null,
      },
    });
    await service.app.db.challengeAccess.update({
      where: { challengeId },
      data: { rekeyRequestedAt: new Date(), hiddenAt: new Date() },
    });
    // Processing finishes between the first copy and the commit (what markReady writes).
    let copies = 0;
    const racing: ObjectStorage = {
      ...service.app.storage,
      async copyObject(from, to) {
        if (++copies === 1) {
          await service.app.db.challengeVideo.update({
            where: { id: videoId },
            data: {
              status: 'ready',
              objectKey: `videos/${videoId}/video.mp4`,
              thumbnailKey: `videos/${videoId}/thumbnail.webp`,
            },
          });
        }
        return service.app.storage.copyObject(from, to);
      },
    };
    expect(await rekeyChallenge(deps(racing), challengeId)).toBe(1);
    const keys = await keysOf(videoId);
    expect(keys.objectKey).toMatch(new RegExp(`^videos/${videoId}/[0-9a-f]{24}/video\\.mp4$`));
    expect(keys.originalKey).toMatch(new RegExp(`^videos/${videoId}/[0-9a-f]{24}/original\\.mov$`));
    expect(keys.thumbnailKey).toMatch(
      new RegExp(`^videos/${videoId}/[0-9a-f]{24}/thumbnail\\.webp$`),
    );
    // The first round's copy was an orphan (due at once, deleted); the old objects are gone.
    expect((await storedKeys(videoId)).sort()).toEqual(Object.values(keys).sort());
    expect(
      await service.app.db.challengeAccess.findUnique({
        where: { challengeId },
        select: { rekeyRequestedAt: true },
      }),
    ).toEqual({ rekeyRequestedAt: null });
  }, 30_000);

  it('the sweep finishes a move its event gave up on, and only a stale one', async () => {
    const { challengeId, videoId, objects } = await seeded('public');
    const askedAt = new Date();
    await service.app.db.challengeAccess.update({
      where: { challengeId },
      data: { rekeyRequestedAt: askedAt, hiddenAt: askedAt },
    });
    const sweep = (at: Date) => finishStaleRekeys(deps(service.app.storage), at);
    await sweep(new Date(askedAt.getTime() + STALE_REKEY_MS - 1000));
    expect(Object.values(await keysOf(videoId)).sort()).toEqual(Object.keys(objects).sort());
    await sweep(new Date(askedAt.getTime() + STALE_REKEY_MS + 1000));
    const moved = await keysOf(videoId);
    for (const key of Object.keys(objects)) expect(Object.values(moved)).not.toContain(key);
    expect((await storedKeys(videoId)).sort()).toEqual(Object.values(moved).sort());
  });

  it('a deletion listed for a key a row points at deletes nothing', async () => {
    const { videoId } = await seeded('public');
    const key = `videos/${videoId}/video.mp4`;
    await service.app.db.objectDeletion.create({
      data: { key, videoId, notBefore: new Date(Date.now() - 1000) },
    });
    await deleteDueObjects(deps(service.app.storage));
    expect(await service.app.storage.statObject(key)).not.toBeNull();
    expect(await service.app.db.objectDeletion.findUnique({ where: { key } })).toBeNull();
  });

  it('made private: a stranger’s old link refused, the owner gets a working new one', async () => {
    const { challengeId, ownerId, objects, videoId } = await seeded('public');
    const [before] = await linksOf(challengeId);
    expect((await fetched(before!.videoSource)).status).toBe(200);
    await challengeHandlers(inlineJobs(service.app.storage)).project(
      visibilityChanged(challengeId, ownerId, 'private', 1),
    );
    expect([403, 404]).toContain((await fetched(before!.videoSource)).status);
    expect(await linksOf(challengeId)).toEqual([]);
    const [fresh] = await linksOf(challengeId, { id: ownerId });
    expect(await fetched(fresh!.videoSource)).toEqual({
      status: 200,
      text: objects[`videos/${videoId}/video.mp4`],
    });
  }, 30_000);
});

describe('the moves are jobs; the latest visibility wins (docs/adr/0073)', () => {
  it('switches made before the job runs cost one move at most: none when public again', async () => {
    const { challengeId, ownerId, videoId, objects } = await seeded('public');
    const queued: Date[] = [];
    const handlers = challengeHandlers({
      db: service.app.db,
      logger: service.runtime.logger,
      requestRekey: async (_challengeId, requestedAt) => void queued.push(requestedAt),
    });
    const original = Object.keys(objects).sort();
    // Private, then public again before any job ran: the jobs move nothing.
    await handlers.project(visibilityChanged(challengeId, ownerId, 'private', 1));
    await handlers.project(visibilityChanged(challengeId, ownerId, 'public', 2));
    for (const at of queued)
      expect(await runRekeyJob(deps(service.app.storage), challengeId, at)).toBe(0);
    expect(Object.values(await keysOf(videoId)).sort()).toEqual(original);

    // Private, public, private: only the job of the latest request moves, once. (A pending
    // request is queued again by each event: the same job id, which the queue adds once.)
    queued.length = 0;
    await handlers.project(visibilityChanged(challengeId, ownerId, 'private', 3));
    await handlers.project(visibilityChanged(challengeId, ownerId, 'public', 4));
    await handlers.project(visibilityChanged(challengeId, ownerId, 'private', 5));
    const jobs = [...new Set(queued.map((at) => at.getTime()))].map((ms) => new Date(ms));
    const moves = [];
    for (const at of jobs)
      moves.push(await runRekeyJob(deps(service.app.storage), challengeId, at));
    expect(moves.at(-1)).toBe(1);
    expect(moves.reduce((sum, count) => sum + count, 0)).toBe(1);
    const moved = Object.values(await keysOf(videoId));
    for (const key of original) expect(moved).not.toContain(key);
  });
});

describe('a slow move does not hold up the consumer (docs/adr/0073)', () => {
  it("while challenge A's move is stuck, B's take-offline (same partition) is applied and B's objects move", async () => {
    const a = await seeded('public');
    const b = await seeded('public');
    const [bBefore] = await linksOf(b.challengeId);
    // A's move cannot commit while the test holds its video row (a slow store, a huge video...).
    let unblock: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    let locked: () => void = () => undefined;
    const rowLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = service.app.db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM challenge_videos WHERE id = ${a.videoId}::uuid FOR UPDATE`;
        locked();
        await blocked;
      },
      { timeout: 120_000, maxWait: 10_000 },
    );
    holder.catch(() => undefined);
    await rowLocked;
    const hiddenAt = async (challengeId: string) =>
      (await service.app.db.challengeAccess.findUniqueOrThrow({ where: { challengeId } })).hiddenAt;
    try {
      // Both events on one partition: the consumer handles them in this order.
      const onePartition = (challengeId: string) => [
        { key: challengeId, value: JSON.stringify(takenOffline(challengeId)), partition: 0 },
      ];
      await produceRaw(topicPrefix, TOPICS.moderation, onePartition(a.challengeId));
      await eventually(async () => expect(await hiddenAt(a.challengeId)).not.toBeNull(), 30_000);
      // A's move is under way: its copies are being made, its commit waits on the row.
      await eventually(
        async () => expect((await storedKeys(a.videoId)).length).toBeGreaterThan(3),
        30_000,
      );
      await produceRaw(topicPrefix, TOPICS.moderation, onePartition(b.challengeId));

      await eventually(async () => expect(await hiddenAt(b.challengeId)).not.toBeNull(), 20_000);
      await eventually(async () => {
        const { status } = await fetched(bBefore!.videoSource);
        expect(status).not.toBe(200);
      }, 20_000);
      for (const key of Object.keys(b.objects)) {
        expect(Object.values(await keysOf(b.videoId))).not.toContain(key);
      }
      // A still waits.
      expect(Object.values(await keysOf(a.videoId)).sort()).toEqual(Object.keys(a.objects).sort());
    } finally {
      unblock();
      await holder;
    }
    // Released, A's move finishes.
    await eventually(async () => {
      const moved = Object.values(await keysOf(a.videoId));
      for (const key of Object.keys(a.objects)) expect(moved).not.toContain(key);
    }, 30_000);
  }, 120_000);
});

function deps(storage: ObjectStorage) {
  return { db: service.app.db, storage, logger: service.runtime.logger };
}

/** Handlers whose queued move runs at once, in the handler's call (what the job would do). */
function inlineJobs(storage: ObjectStorage) {
  return {
    ...deps(storage),
    requestRekey: async (challengeId: string, requestedAt: Date) =>
      void (await runRekeyJob(deps(storage), challengeId, requestedAt)),
  };
}

function visibilityChanged(
  challengeId: string,
  ownerId: string,
  visibility: 'public' | 'private',
  visibilityVersion: number,
) {
  return newEvent('ChallengeVisibilityChanged', {
    aggregateId: challengeId,
    actorId: ownerId,
    data: {
      challengeId,
      slug: `c-${challengeId.slice(0, 8)}`,
      challengeName: 'Juggle',
      rewardCents: 500,
      ownerId,
      challengedUserId: null,
      challengedEmail: null,
      challengeType: 'solo' as const,
      visibility,
      visibilityVersion,
    },
  });
}
