import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_INTERNAL_API_TOKEN,
  deleteTopics,
  fromGateway,
  freePort,
  stack,
  startTestService,
  tokenFor,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { buildApp, type MediaApp } from '../src/app.ts';
import { upsertChallengeAccess } from '../src/data/challenges.ts';

/**
 * A completed proof upload whose registration challenge does not answer (docs/adr/0071):
 * challenge may have registered it all the same, so the video is kept and queued, never dropped
 * (a registration waiting for a video that will not come would hold the challenge's money for
 * good). The refusals (challenge_expired, ...) go through the real challenge in
 * e2e/test/challenge-timers.integration.test.ts.
 */

const topicPrefix = uniqueTopicPrefix();
const queued: string[] = [];
let service: TestService<MediaApp>;

beforeAll(async () => {
  // A port nothing listens on: challenge cannot be reached there.
  const port = await freePort();
  service = await startTestService(
    'media',
    (runtime, url) =>
      buildApp(
        runtime,
        url,
        { ...stack.s3, bucket: 'challenge-media-test' },
        {
          queue: {
            enqueue: async (videoId) => void queued.push(videoId),
            stateOf: async () => 'missing' as const,
          },
          challenge: {
            internalUrl: `http://127.0.0.1:${port}`,
            internalApiToken: TEST_INTERNAL_API_TOKEN,
          },
        },
      ),
    { topicPrefix },
  );
});

afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

const MP4_HEAD = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom'),
  Buffer.alloc(20),
]);
const b64 = (value: string) => Buffer.from(value).toString('base64');

describe('a completed upload challenge does not answer for', () => {
  it('is kept and queued: the uploader is told it is in', async () => {
    const user = { id: randomUUID() };
    const challengeId = randomUUID();
    await upsertChallengeAccess(service.app.db, challengeId, {
      ownerId: randomUUID(),
      challengedUserId: user.id,
      status: 'accepted',
      visibility: 'public',
    });
    const headers = {
      ...fromGateway(),
      authorization: `Bearer ${await tokenFor(user)}`,
      'tus-resumable': '1.0.0',
    };
    const bytes = Buffer.concat([MP4_HEAD, Buffer.alloc(4_000)]);
    const created = await fetch(new URL('/uploads/tus', service.url), {
      method: 'POST',
      headers: {
        ...headers,
        'upload-length': String(bytes.length),
        'upload-metadata': `challengeId ${b64(challengeId)},ownVideoConfirmed ${b64('true')}`,
      },
    });
    expect(created.status).toBe(201);
    const completed = await fetch(new URL(created.headers.get('location')!, service.url), {
      method: 'PATCH',
      headers: {
        ...headers,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': '0',
      },
      body: bytes,
    });
    expect(completed.status).toBe(204);
    const videoId = completed.headers.get('upload-video-id')!;
    expect(
      await service.app.db.challengeVideo.findUniqueOrThrow({ where: { id: videoId } }),
    ).toMatchObject({ challengeId, uploaderId: user.id, status: 'uploaded' });
    expect(queued).toContain(videoId);
  });
});
