import { randomUUID } from 'node:crypto';
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
import type { ObjectStorage } from '../src/data/storage.ts';
import { insertVideo } from '../src/data/videos.ts';
import { challengeHandlers } from '../src/events/consumers.ts';
import {
  STALE_REKEY_MS,
  deleteDueObjects,
  finishStaleRekeys,
  rekeyChallenge,
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

beforeAll(async () => {
  service = await startTestService(
    'media',
    (runtime, url) => buildApp(runtime, url, storageConfig),
    { topicPrefix },
  );
});

afterAll(async () => {
  await service?.stop();
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
    const { hide } = challengeHandlers({
      db: service.app.db,
      storage: service.app.storage,
      logger: service.runtime.logger,
    });
    const event = takenOffline(challengeId);
    await hide(event);
    const moved = await keysOf(videoId);
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
    await expect(challengeHandlers(deps(failingCopy)).hide(event)).rejects.toThrow(
      'store unreachable',
    );
    // Nothing moved: the row keeps its keys, every old object is there, the stray copy is listed.
    expect(Object.values(await keysOf(videoId)).sort()).toEqual(Object.keys(objects).sort());
    const stray = (await storedKeys(videoId)).filter((key) => !(key in objects));
    expect(stray).toHaveLength(1);
    expect(
      await service.app.db.objectDeletion.findUnique({ where: { key: stray[0]! } }),
    ).not.toBeNull();

    // The redelivery moves; deleting the old objects fails once (a crash after the commit).
    let removals = 0;
    const failingRemove: ObjectStorage = {
      ...service.app.storage,
      async removeObject(key) {
        if (++removals === 1) throw new Error('store unreachable');
        return service.app.storage.removeObject(key);
      },
    };
    await expect(challengeHandlers(deps(failingRemove)).hide(event)).rejects.toThrow(
      'store unreachable',
    );
    const moved = await keysOf(videoId);
    expect(Object.values(moved)).not.toContain(`videos/${videoId}/video.mp4`);
    // The next redelivery moves nothing again and deletes what was left.
    await challengeHandlers(deps(service.app.storage)).hide(event);
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
      data: { rekeyRequestedAt: new Date() },
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
      data: { rekeyRequestedAt: askedAt },
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
    await challengeHandlers(deps(service.app.storage)).project(
      newEvent('ChallengeVisibilityChanged', {
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
          challengeType: 'solo',
          visibility: 'private',
          visibilityVersion: 1,
        },
      }),
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

function deps(storage: ObjectStorage) {
  return { db: service.app.db, storage, logger: service.runtime.logger };
}
