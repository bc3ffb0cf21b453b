import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteTopics,
  stack,
  startTestService,
  uniqueTopicPrefix,
  type TestService,
  graphql,
  readiness,
} from '@challenge/testing';
import { buildApp, type MediaApp } from '../src/app.ts';
import { insertVideo, type NewVideoRow } from '../src/data/videos.ts';
import { upsertChallengeAccess } from '../src/data/challenges.ts';

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
    const newer = await seedVideo(
      {
        challengeId,
        uploaderId,
        objectKey: `${prefix}/b.mp4`,
        aspectMode: 'portrait',
        status: 'ready',
      },
      { [`${prefix}/b.mp4`]: 'second video bytes' },
    );
    await seedVideo({
      challengeId,
      uploaderId,
      objectKey: `${prefix}/c.mp4`,
      status: 'processing',
    });
    await seedVideo({ challengeId, uploaderId, objectKey: `${prefix}/d.mp4`, status: 'uploaded' });
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
    // Signed for one hour.
    expect(new URL(first.videoSource).searchParams.get('X-Amz-Expires')).toBe('3600');
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
