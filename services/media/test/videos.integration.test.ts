import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteTopics,
  eventually,
  produceRaw,
  stack,
  startTestService,
  uniqueTopicPrefix,
  type TestService,
  graphql,
  readiness,
} from '@challenge/testing';
import { buildApp, type MediaApp } from '../src/app.ts';
import { insertVideo, type NewVideoRow } from '../src/data/videos.ts';
import { findChallengeAccess, upsertChallengeAccess } from '../src/data/challenges.ts';
import { TOPICS, newEvent, type DomainEvent } from '@challenge/events';
import {
  mayUploadProof,
  projectChallengeEvent,
  type ChallengeEvent,
} from '../src/domain/challenges.ts';
import type { AuthUser } from '@challenge/kit';
import { createThumbnailLoader } from '../src/domain/thumbnails.ts';
import type { Database } from '../src/data/db.ts';
import { PRESIGN_WINDOW_SECONDS } from '../src/data/storage.ts';

/** A one-hour link is signed at its window's start, so it lives the hour plus one window. */
const ONE_HOUR_SIGNED = String(3600 + PRESIGN_WINDOW_SECONDS);

const topicPrefix = uniqueTopicPrefix();
const storageConfig = { ...stack.s3, bucket: 'challenge-media-test' };
let service: TestService<MediaApp>;
const written: string[] = [];

beforeAll(async () => {
  service = await startTestService(
    'media',
    (runtime, url) => buildApp(runtime, url, storageConfig),
    {
      topicPrefix,
    },
  );
});

afterAll(async () => {
  await Promise.all(written.map((key) => service?.app.storage.removeObject(key)));
  await service?.stop();
  await deleteTopics(topicPrefix);
});

/** A video row and, for the given keys, real objects in the bucket with the given bytes. */
async function seedVideo(row: NewVideoRow, objects: Record<string, string> = {}) {
  for (const [key, content] of Object.entries(objects)) {
    await service.app.storage.putObject(
      key,
      Buffer.from(content),
      key.endsWith('.jpg') ? 'image/jpeg' : 'video/mp4',
    );
    written.push(key);
  }
  return insertVideo(service.app.db, row);
}

const VIDEOS = /* GraphQL */ `
  query ($r: [_Any!]!) {
    _entities(representations: $r) {
      ... on Challenge {
        id
        challengeVideos {
          id
          videoSource
          aspectMode
          downloadUrl
          thumbnailUrl
        }
      }
    }
  }
`;

describe('Challenge.challengeVideos', () => {
  it('lists only the ready videos of the challenge, newest first, with working signed URLs', async () => {
    const challengeId = randomUUID();
    const uploaderId = randomUUID();
    const prefix = `videos/${challengeId}`;
    // Media shows the videos of a challenge it knows to be public (its projection) to anyone.
    await upsertChallengeAccess(service.app.db, challengeId, {
      ownerId: randomUUID(),
      challengedUserId: uploaderId,
      status: 'review',
      visibility: 'public',
    });
    const older = await seedVideo(
      {
        challengeId,
        uploaderId,
        objectKey: `${prefix}/a.mp4`,
        thumbnailKey: `${prefix}/a.jpg`,
        status: 'ready',
      },
      { [`${prefix}/a.mp4`]: 'first video bytes', [`${prefix}/a.jpg`]: 'thumbnail bytes' },
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Another performer's (one live video per performer, docs/adr/0073).
    const newer = await seedVideo(
      {
        challengeId,
        uploaderId: randomUUID(),
        objectKey: `${prefix}/b.mp4`,
        aspectMode: 'portrait',
        status: 'ready',
      },
      { [`${prefix}/b.mp4`]: 'second video bytes' },
    );
    await seedVideo({
      challengeId,
      uploaderId: randomUUID(),
      objectKey: `${prefix}/c.mp4`,
      status: 'processing',
    });
    await seedVideo({
      challengeId,
      uploaderId: randomUUID(),
      objectKey: `${prefix}/d.mp4`,
      status: 'uploaded',
    });
    await seedVideo({ challengeId, uploaderId, objectKey: `${prefix}/e.mp4`, status: 'failed' });
    const otherChallenge = randomUUID();
    await seedVideo({
      challengeId: otherChallenge,
      uploaderId,
      objectKey: `videos/${otherChallenge}/x.mp4`,
      status: 'ready',
    });

    const { data, errors } = await graphql(service.url, VIDEOS, {
      r: [{ __typename: 'Challenge', id: challengeId }],
    });
    expect(errors).toBeUndefined();
    const [challenge] = data!._entities;
    expect(challenge.id).toBe(challengeId);
    expect(challenge.challengeVideos.map((video: { id: string }) => video.id)).toEqual([
      newer.id,
      older.id,
    ]);
    const [second, first] = challenge.challengeVideos;
    expect(second).toMatchObject({ aspectMode: 'portrait', thumbnailUrl: null });
    expect(first).toMatchObject({ aspectMode: 'landscape' });

    expect(await (await fetch(first.videoSource)).text()).toBe('first video bytes');
    expect(await (await fetch(second.videoSource)).text()).toBe('second video bytes');
    expect(await (await fetch(first.thumbnailUrl)).text()).toBe('thumbnail bytes');
    const download = await fetch(first.downloadUrl);
    expect(await download.text()).toBe('first video bytes');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="challenge-video-${older.id}.mp4"`,
    );
    // Signed for one hour from any moment of its signing window (docs/adr/0081).
    expect(new URL(first.videoSource).searchParams.get('X-Amz-Expires')).toBe(ONE_HOUR_SIGNED);
  });

  it('answers an empty list for a challenge without ready videos, and for an id that is no uuid', async () => {
    const challengeId = randomUUID();
    await seedVideo({
      challengeId,
      uploaderId: randomUUID(),
      objectKey: `videos/${challengeId}/p.mp4`,
      status: 'processing',
    });
    const { data, errors } = await graphql(service.url, VIDEOS, {
      r: [
        { __typename: 'Challenge', id: challengeId },
        { __typename: 'Challenge', id: 'not-a-uuid' },
      ],
    });
    expect(errors).toBeUndefined();
    expect(data?._entities).toEqual([
      { id: challengeId, challengeVideos: [] },
      { id: 'not-a-uuid', challengeVideos: [] },
    ]);
  });
});

const RECYCLED_FLAG = /* GraphQL */ `
  query ($r: [_Any!]!) {
    _entities(representations: $r) {
      ... on Challenge {
        challengeVideos {
          id
          recycledFrom {
            challengeId
          }
        }
      }
    }
  }
`;

describe('_entities: what a representation says decides nothing (issue 18)', () => {
  /** A ready video of a challenge media knows, flagged as a recycled proof of another challenge. */
  async function flaggedVideo(access: Parameters<typeof upsertChallengeAccess>[2]) {
    const challengeId = randomUUID();
    await upsertChallengeAccess(service.app.db, challengeId, access);
    const video = await seedVideo({
      challengeId,
      uploaderId: access.challengedUserId ?? randomUUID(),
      objectKey: `videos/${challengeId}/r.mp4`,
      status: 'ready',
    });
    const earlier = randomUUID();
    await service.app.db.challengeVideo.update({
      where: { id: video.id },
      data: { recycledFromChallengeId: earlier },
    });
    return { challengeId, videoId: video.id, earlier };
  }

  it("takes the owner from media's own projection: naming oneself owner in the representation shows no recycled flag", async () => {
    const ownerId = randomUUID();
    const stranger = randomUUID();
    const { challengeId, videoId, earlier } = await flaggedVideo({
      ownerId,
      challengedUserId: randomUUID(),
      status: 'review',
      visibility: 'public',
    });
    const ask = async (caller: string, representation: Record<string, unknown>) => {
      const { data, errors } = await graphql(
        service.url,
        RECYCLED_FLAG,
        { r: [{ __typename: 'Challenge', id: challengeId, ...representation }] },
        { id: caller },
      );
      expect(errors).toBeUndefined();
      return data!._entities[0].challengeVideos;
    };
    // The stranger claims to own it: the flag stays the owner's and staff's.
    expect(await ask(stranger, { owner: { id: stranger } })).toEqual([
      { id: videoId, recycledFrom: null },
    ]);
    // The real owner sees it whatever the representation says, or leaves out.
    const flagged = [{ id: videoId, recycledFrom: { challengeId: earlier } }];
    expect(await ask(ownerId, { owner: { id: stranger } })).toEqual(flagged);
    expect(await ask(ownerId, {})).toEqual(flagged);
  });

  it('cannot make a private or an offline challenge visible by claiming another visibility, party or state', async () => {
    const ownerId = randomUUID();
    const stranger = randomUUID();
    const claims = {
      owner: { id: stranger },
      challengedUser: { id: stranger },
      visibility: 'public',
      status: 'completed',
      hiddenAt: null,
      offline: false,
    };
    const hidden = await flaggedVideo({
      ownerId,
      challengedUserId: randomUUID(),
      status: 'review',
      visibility: 'private',
    });
    const offline = await flaggedVideo({
      ownerId,
      challengedUserId: randomUUID(),
      status: 'review',
      visibility: 'public',
      hiddenAt: new Date(),
    });
    for (const { challengeId } of [hidden, offline]) {
      for (const caller of [{ id: stranger }, undefined]) {
        const { data, errors } = await graphql(
          service.url,
          RECYCLED_FLAG,
          { r: [{ __typename: 'Challenge', id: challengeId, ...claims }] },
          caller,
        );
        expect(errors).toBeUndefined();
        expect(data!._entities[0].challengeVideos).toEqual([]);
      }
    }
  });
});

const IN_PROCESSING = /* GraphQL */ `
  query ($r: [_Any!]!) {
    _entities(representations: $r) {
      ... on Challenge {
        videoInProcessing
      }
    }
  }
`;

describe('Challenge.videoInProcessing', () => {
  it('tells the parties and staff while a video is uploaded or processing, nobody else', async () => {
    const challengeId = randomUUID();
    const [ownerId, challengedId] = [randomUUID(), randomUUID()];
    await upsertChallengeAccess(service.app.db, challengeId, {
      ownerId,
      challengedUserId: challengedId,
      status: 'accepted',
      visibility: 'public',
    });
    const asks = async (as?: { id: string; roles?: ('user' | 'referee')[] }) => {
      const { data, errors } = await graphql(
        service.url,
        IN_PROCESSING,
        { r: [{ __typename: 'Challenge', id: challengeId }] },
        as,
      );
      expect(errors).toBeUndefined();
      return data!._entities[0].videoInProcessing as boolean;
    };
    const owner = { id: ownerId };
    const challenged = { id: challengedId };
    const stranger = { id: randomUUID() };
    const referee = { id: randomUUID(), roles: ['referee' as const] };
    // Nothing uploaded yet; a failed video is not processing.
    await seedVideo({
      challengeId,
      uploaderId: challengedId,
      objectKey: `videos/${challengeId}/f.mp4`,
      status: 'failed',
    });
    expect(await asks(owner)).toBe(false);

    const uploaded = await seedVideo({
      challengeId,
      uploaderId: challengedId,
      objectKey: `videos/${challengeId}/u.mp4`,
      status: 'uploaded',
    });
    expect([await asks(owner), await asks(challenged), await asks(referee)]).toEqual([
      true,
      true,
      true,
    ]);
    // Strangers (even of a public challenge) and visitors are told nothing.
    expect([await asks(stranger), await asks()]).toEqual([false, false]);

    await service.app.db.challengeVideo.update({
      where: { id: uploaded.id },
      data: { status: 'processing' },
    });
    expect(await asks(challenged)).toBe(true);
    await service.app.db.challengeVideo.update({
      where: { id: uploaded.id },
      data: { status: 'ready' },
    });
    expect(await asks(challenged)).toBe(false);
  });

  it('tells only staff once moderation took the challenge offline', async () => {
    const challengeId = randomUUID();
    const challengedId = randomUUID();
    await upsertChallengeAccess(service.app.db, challengeId, {
      ownerId: randomUUID(),
      challengedUserId: challengedId,
      status: 'accepted',
      visibility: 'public',
      hiddenAt: new Date(),
    });
    await seedVideo({
      challengeId,
      uploaderId: challengedId,
      objectKey: `videos/${challengeId}/u.mp4`,
      status: 'processing',
    });
    const ask = async (as: { id: string; roles?: ('user' | 'moderator')[] }) =>
      (
        await graphql(
          service.url,
          IN_PROCESSING,
          { r: [{ __typename: 'Challenge', id: challengeId }] },
          as,
        )
      ).data!._entities[0].videoInProcessing;
    expect(await ask({ id: challengedId })).toBe(false);
    expect(await ask({ id: randomUUID(), roles: ['moderator'] })).toBe(true);
  });

  it('shows the parties their challenge again once staff brought it back online (docs/adr/0071)', async () => {
    const challengeId = randomUUID();
    const challengedId = randomUUID();
    await upsertChallengeAccess(service.app.db, challengeId, {
      ownerId: randomUUID(),
      challengedUserId: challengedId,
      status: 'accepted',
      visibility: 'private',
    });
    await seedVideo({
      challengeId,
      uploaderId: challengedId,
      objectKey: `videos/${challengeId}/u.mp4`,
      status: 'processing',
    });
    const moderatorId = randomUUID();
    const moderation = (event: DomainEvent) =>
      produceRaw(topicPrefix, TOPICS.moderation, [
        { key: event.aggregateId, value: JSON.stringify(event) },
      ]);
    const ask = async () =>
      (
        await graphql(
          service.url,
          IN_PROCESSING,
          { r: [{ __typename: 'Challenge', id: challengeId }] },
          { id: challengedId },
        )
      ).data!._entities[0].videoInProcessing;
    await moderation(
      newEvent('ChallengeTakenOffline', {
        aggregateId: challengeId,
        actorId: moderatorId,
        data: { challengeId, moderatorId, reportId: null },
      }),
    );
    await eventually(async () => expect(await ask()).toBe(false));
    await moderation(
      newEvent('ChallengeBroughtBackOnline', {
        aggregateId: challengeId,
        actorId: moderatorId,
        data: { challengeId, moderatorId },
      }),
    );
    await eventually(async () => expect(await ask()).toBe(true));
    expect(
      mayUploadProof(await findChallengeAccess(service.app.db, challengeId), {
        id: challengedId,
        roles: ['user'],
      } as AuthUser),
    ).toBe(true);
  });
});

describe('the challenge projection keeps the newest visibility (docs/adr/0056)', () => {
  const snapshot = (challengeId: string, ownerId: string) => ({
    challengeId,
    slug: `c-${challengeId.slice(0, 8)}`,
    challengeName: 'Juggle',
    rewardCents: 500,
    ownerId,
    challengedUserId: null,
    challengedEmail: null,
    challengeType: 'solo' as const,
  });
  const project = (event: ChallengeEvent) =>
    service.app.db.$transaction((tx) => projectChallengeEvent(tx, event));
  const visibilityOf = async (challengeId: string) =>
    (await service.app.db.challengeAccess.findUniqueOrThrow({ where: { challengeId } })).visibility;

  it('an older visibility arriving late, or ChallengeCreated replayed, changes nothing', async () => {
    const challengeId = randomUUID();
    const ownerId = randomUUID();
    const base = { aggregateId: challengeId, actorId: ownerId };
    const changed = (visibility: 'public' | 'private', visibilityVersion: number) =>
      newEvent('ChallengeVisibilityChanged', {
        ...base,
        data: { ...snapshot(challengeId, ownerId), visibility, visibilityVersion },
      });
    const created = newEvent('ChallengeCreated', {
      ...base,
      data: {
        ...snapshot(challengeId, ownerId),
        visibility: 'public',
        expiresAt: new Date().toISOString(),
      },
    });
    await project(created);
    expect(await visibilityOf(challengeId)).toBe('public');
    await project(changed('public', 2));
    await project(changed('private', 1)); // made private, then public again: arrives late
    expect(await visibilityOf(challengeId)).toBe('public');
    await project(created);
    expect(await visibilityOf(challengeId)).toBe('public');
    await project(changed('private', 3));
    expect(await visibilityOf(challengeId)).toBe('private');
    await project(changed('public', 2));
    expect(await visibilityOf(challengeId)).toBe('private');
  });

  it("closes a duel's side once its video went to review or the side ended, in any order, once", async () => {
    const challengeId = randomUUID();
    const ownerId = randomUUID();
    const challengedUserId = randomUUID();
    const duel = {
      ...snapshot(challengeId, ownerId),
      challengedUserId,
      challengeType: 'duel' as const,
    };
    const base = { aggregateId: challengeId, actorId: null };
    const user = (id: string) =>
      ({ id, roles: ['user'], tokenId: 't', issuedAt: 0, expiresAt: 0 }) as AuthUser;
    const access = () => findChallengeAccess(service.app.db, challengeId);
    // The side's end arrives before the acceptance (another order): the side stays closed.
    await project(
      newEvent('DuelSideJudged', {
        ...base,
        data: { ...duel, performerId: ownerId, outcome: 'failed', judgedByReferee: false },
      }),
    );
    await project(newEvent('ChallengeAccepted', { ...base, data: duel }));
    expect(await access()).toMatchObject({ status: 'accepted', challengeType: 'duel' });
    expect((await access())!.closedSides).toEqual([ownerId]);
    expect(mayUploadProof(await access(), user(ownerId))).toBe(false);
    expect(mayUploadProof(await access(), user(challengedUserId))).toBe(true);
    const uploaded = newEvent('ChallengeVideoUploaded', {
      ...base,
      data: { ...duel, videoId: randomUUID(), performerId: challengedUserId },
    });
    await project(uploaded);
    await project(uploaded); // redelivered (handleOnce aside): no duplicate
    expect((await access())!.closedSides.sort()).toEqual([ownerId, challengedUserId].sort());
    expect(mayUploadProof(await access(), user(challengedUserId))).toBe(false);
  });

  it('a visibility change before ChallengeCreated (another order) wins over it', async () => {
    const challengeId = randomUUID();
    const ownerId = randomUUID();
    const base = { aggregateId: challengeId, actorId: ownerId };
    await project(
      newEvent('ChallengeVisibilityChanged', {
        ...base,
        data: { ...snapshot(challengeId, ownerId), visibility: 'private', visibilityVersion: 1 },
      }),
    );
    await project(
      newEvent('ChallengeCreated', {
        ...base,
        data: {
          ...snapshot(challengeId, ownerId),
          visibility: 'public',
          expiresAt: new Date().toISOString(),
        },
      }),
    );
    expect(await visibilityOf(challengeId)).toBe('private');
  });
});

describe('Challenge.thumbnailUrl: the cards of a list in one query', () => {
  const THUMBNAILS = /* GraphQL */ `
    query ($r: [_Any!]!) {
      _entities(representations: $r) {
        ... on Challenge {
          id
          thumbnailUrl
        }
      }
    }
  `;

  /** 24 challenges of every kind a list can hold, each with what a stranger and its owner get. */
  async function cards() {
    const ownerId = randomUUID();
    const kinds = ['public', 'private', 'hidden', 'unknown', 'no-video', 'failed-only'] as const;
    const made: { id: string; kind: (typeof kinds)[number]; thumbnail: string | null }[] = [];
    for (let index = 0; index < 24; index += 1) {
      const kind = kinds[index % kinds.length]!;
      const id = randomUUID();
      if (kind !== 'unknown') {
        await upsertChallengeAccess(service.app.db, id, {
          ownerId,
          challengedUserId: randomUUID(),
          status: 'review',
          visibility: kind === 'private' ? 'private' : 'public',
          hiddenAt: kind === 'hidden' ? new Date() : null,
        });
      }
      let thumbnail: string | null = null;
      if (kind !== 'no-video') {
        const older = `videos/${id}/old.webp`;
        thumbnail = `videos/${id}/new.webp`;
        await seedVideo(
          {
            challengeId: id,
            uploaderId: randomUUID(),
            objectKey: `videos/${id}/old.mp4`,
            thumbnailKey: older,
            status: kind === 'failed-only' ? 'failed' : 'ready',
            createdAt: new Date(Date.now() - 60_000),
          },
          { [older]: `old ${id}` },
        );
        await seedVideo(
          {
            challengeId: id,
            uploaderId: randomUUID(),
            objectKey: `videos/${id}/new.mp4`,
            thumbnailKey: thumbnail,
            status: kind === 'failed-only' ? 'failed' : 'ready',
          },
          { [thumbnail]: `thumbnail ${id}` },
        );
        // A newer video still processing has no thumbnail to show yet.
        await seedVideo({
          challengeId: id,
          uploaderId: randomUUID(),
          objectKey: `videos/${id}/processing.mp4`,
          status: 'processing',
        });
        if (kind === 'failed-only') thumbnail = null;
      }
      made.push({ id, kind, thumbnail });
    }
    return { ownerId, made };
  }

  /** The database media's resolvers would use, counting every query sent through it. */
  function countingDatabase() {
    const counter = { queries: 0 };
    const db = service.app.db.$extends({
      query: {
        async $allOperations({ args, query }) {
          counter.queries += 1;
          return query(args);
        },
      },
    }) as unknown as Database;
    return { db, counter };
  }

  it('24 challenges cost one database query, each under its own visibility rule', async () => {
    const { ownerId, made } = await cards();
    const { db, counter } = countingDatabase();
    const stranger = { id: randomUUID(), roles: ['user' as const] };
    const load = createThumbnailLoader(db, service.app.storage, stranger);
    const urls = await Promise.all(made.map((card) => load(card.id)));
    expect(counter.queries).toBe(1);
    for (const [index, card] of made.entries()) {
      const visible = card.kind === 'public' || card.kind === 'failed-only';
      if (visible && card.thumbnail) {
        expect(await (await fetch(urls[index]!)).text()).toBe(`thumbnail ${card.id}`);
        expect(new URL(urls[index]!).searchParams.get('X-Amz-Expires')).toBe(ONE_HOUR_SIGNED);
      } else {
        expect(urls[index], card.kind).toBeNull();
      }
    }
    // The owner also sees the private ones; a moderator the hidden ones too.
    const asOwner = createThumbnailLoader(db, service.app.storage, {
      id: ownerId,
      roles: ['user'],
    });
    const asStaff = createThumbnailLoader(db, service.app.storage, {
      id: randomUUID(),
      roles: ['moderator'],
    });
    const [owner, staff] = await Promise.all([
      Promise.all(made.map((card) => asOwner(card.id))),
      Promise.all(made.map((card) => asStaff(card.id))),
    ]);
    expect(counter.queries).toBe(3);
    made.forEach((card, index) => {
      const expectOwner = ['public', 'private'].includes(card.kind) && card.thumbnail !== null;
      expect(owner[index] !== null, `owner, ${card.kind}`).toBe(expectOwner);
      expect(staff[index] !== null, `staff, ${card.kind}`).toBe(card.thumbnail !== null);
    });
  });

  it('answers the same through _entities, with null for what the viewer may not see', async () => {
    const { ownerId, made } = await cards();
    const representations = [
      ...made.map((card) => ({ __typename: 'Challenge', id: card.id })),
      { __typename: 'Challenge', id: 'not-a-uuid' },
    ];
    const asStranger = await graphql(service.url, THUMBNAILS, { r: representations });
    expect(asStranger.errors).toBeUndefined();
    const asOwner = await graphql(service.url, THUMBNAILS, { r: representations }, { id: ownerId });
    expect(asOwner.errors).toBeUndefined();
    made.forEach((card, index) => {
      const anyone = asStranger.data!._entities[index];
      const owner = asOwner.data!._entities[index];
      expect(anyone.id).toBe(card.id);
      const strangerSees = card.kind === 'public' && card.thumbnail !== null;
      const ownerSees = (card.kind === 'public' || card.kind === 'private') && card.thumbnail;
      expect(anyone.thumbnailUrl !== null, `stranger, ${card.kind}`).toBe(strangerSees);
      expect(owner.thumbnailUrl !== null, `owner, ${card.kind}`).toBe(Boolean(ownerSees));
      if (ownerSees) expect(owner.thumbnailUrl).toContain(`videos/${card.id}/new.webp`);
    });
    expect(asStranger.data!._entities[24]).toEqual({ id: 'not-a-uuid', thumbnailUrl: null });
  });
});

describe('operations', () => {
  it('has created its bucket at start', async () => {
    await expect(service.app.storage.ping()).resolves.toBeUndefined();
  });

  it('is ready when its database, Redis and Kafka answer', async () => {
    const { httpStatus, body } = await readiness(service.url);
    expect(httpStatus).toBe(200);
    expect(body.status).toBe('ready');
    expect(body.checks).toEqual({ database: 'ok', redis: 'ok', kafka: 'ok', storage: 'ok' });
    expect(Object.values(body.checks).every((value) => value === 'ok')).toBe(true);
  });
});
