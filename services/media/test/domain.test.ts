import { describe, expect, it } from 'vitest';
import { parseEnv, type AuthUser, type Role } from '@challenge/kit';
import {
  downloadFileName,
  toVideoView,
  VIDEO_URL_TTL_SECONDS,
  type UrlSigner,
} from '../src/domain/videos.ts';
import { envSchema, storageConfig } from '../src/env.ts';
import { mayUploadProof, mayViewChallenge } from '../src/domain/challenges.ts';
import { sniffImage, sniffStream, sniffVideo, UploadRefusal } from '../src/domain/sniff.ts';
import type { ChallengeAccessRecord } from '../src/data/challenges.ts';
import type { VideoRecord } from '../src/data/videos.ts';

const video: VideoRecord = {
  id: '00000000-0000-4000-8000-00000000000a',
  challengeId: '00000000-0000-4000-8000-00000000000b',
  uploaderId: '00000000-0000-4000-8000-00000000000c',
  objectKey: 'videos/b/clip.MOV',
  thumbnailKey: null,
  aspectMode: 'landscape',
  status: 'ready',
  originalKey: null,
  createdAt: new Date(),
  recycledFromChallengeId: null,
};

/** Records what it was asked to sign, so that the rules of the view can be checked in memory. */
const signer: UrlSigner = {
  presignedGetUrl: async (key, seconds, options) =>
    `signed:${key}:${seconds}${options?.downloadAs ? `:as=${options.downloadAs}` : ''}`,
};

describe('downloadFileName', () => {
  it('names the file after the video and keeps the stored extension, lowercased', () => {
    expect(downloadFileName(video)).toBe(`challenge-video-${video.id}.mov`);
    expect(downloadFileName({ ...video, objectKey: 'videos/b/clip.webm' })).toBe(
      `challenge-video-${video.id}.webm`,
    );
  });

  it('adds no extension when the key has none', () => {
    expect(downloadFileName({ ...video, objectKey: 'videos/b/clip' })).toBe(
      `challenge-video-${video.id}`,
    );
  });
});

describe('toVideoView', () => {
  it('signs playback and download for one hour, and the download as an attachment', async () => {
    expect(VIDEO_URL_TTL_SECONDS).toBe(3600);
    expect(await toVideoView(signer, video)).toEqual({
      id: video.id,
      aspectMode: 'landscape',
      videoSource: 'signed:videos/b/clip.MOV:3600',
      downloadUrl: `signed:videos/b/clip.MOV:3600:as=challenge-video-${video.id}.mov`,
      thumbnailUrl: null,
      recycledFrom: null,
    });
  });

  it('signs the thumbnail when there is one', async () => {
    const view = await toVideoView(signer, { ...video, thumbnailKey: 'thumbs/b.jpg' });
    expect(view.thumbnailUrl).toBe('signed:thumbs/b.jpg:3600');
  });

  it('shows the recycled-proof flag to the owner, referees and staff only', async () => {
    const recycled = { ...video, recycledFromChallengeId: '00000000-0000-4000-8000-0000000000ee' };
    const ownerId = '00000000-0000-4000-8000-0000000000aa';
    const seen = async (viewer: { id: string; roles: Role[] } | null, owner = ownerId) =>
      (await toVideoView(signer, recycled, { viewer, ownerId: owner })).recycledFrom;
    const flag = { challengeId: recycled.recycledFromChallengeId };
    expect(await seen({ id: ownerId, roles: ['user'] })).toEqual(flag);
    for (const role of ['referee', 'moderator', 'admin'] as const) {
      expect(await seen({ id: video.uploaderId, roles: ['user', role] })).toEqual(flag);
    }
    expect(await seen({ id: video.uploaderId, roles: ['user'] })).toBeNull();
    expect(await seen(null)).toBeNull();
    // Without the owner from the gateway, only referees and staff.
    expect(await seen({ id: ownerId, roles: ['user'] }, null as unknown as string)).toBeNull();
    expect(
      (await toVideoView(signer, video, { viewer: { id: ownerId, roles: ['admin'] }, ownerId }))
        .recycledFrom,
    ).toBeNull();
  });
});

describe('downloads use the original', () => {
  it('signs the download from originalKey when media kept the original', async () => {
    const view = await toVideoView(signer, {
      ...video,
      objectKey: 'videos/a/playable.mp4',
      originalKey: 'videos/a/original.mov',
    });
    expect(view.videoSource).toBe('signed:videos/a/playable.mp4:3600');
    expect(view.downloadUrl).toBe(
      `signed:videos/a/original.mov:3600:as=challenge-video-${video.id}.mov`,
    );
  });
});

describe('sniffing', () => {
  const ftyp = (brand: string) =>
    Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from(`ftyp${brand}`), Buffer.alloc(52)]);
  const ebml = (docType: string) =>
    Buffer.concat([
      Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]),
      Buffer.from([0x42, 0x82, 0x80 | docType.length]),
      Buffer.from(docType),
      Buffer.alloc(40),
    ]);
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(60)]);

  it('tells mp4, mov and webm apart by their first bytes', () => {
    expect(sniffVideo(ftyp('isom'))?.contentType).toBe('video/mp4');
    expect(sniffVideo(ftyp('qt  '))?.extension).toBe('mov');
    expect(sniffVideo(ebml('webm'))?.extension).toBe('webm');
  });

  it('refuses what is not one of them: a PNG, other Matroska, text', () => {
    expect(sniffVideo(png)).toBeNull();
    expect(sniffVideo(ebml('matroska'))).toBeNull();
    expect(sniffVideo(Buffer.from('ftyp but not where it belongs'))).toBeNull();
  });

  it('recognises jpeg and png images only', () => {
    expect(sniffImage(png)?.contentType).toBe('image/png');
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))?.extension).toBe('jpg');
    expect(sniffImage(Buffer.from('GIF89a'))).toBeNull();
  });

  async function* chunks(...parts: Buffer[]) {
    yield* parts;
  }
  const drain = async (body: AsyncIterable<Buffer>) => {
    let total = 0;
    for await (const chunk of body) total += chunk.length;
    return total;
  };

  it('passes the whole content on after sniffing, split however it arrives', async () => {
    const head = ftyp('isom');
    const { type, body } = await sniffStream(
      chunks(head.subarray(0, 3), head.subarray(3), Buffer.alloc(100)),
      { maxBytes: 1000, sniff: sniffVideo, invalidMessage: 'no' },
    );
    expect(type.extension).toBe('mp4');
    expect(await drain(body)).toBe(head.length + 100);
  });

  it('refuses one byte over the limit with "File is too large", and exactly the limit not', async () => {
    const head = ftyp('isom');
    const ok = await sniffStream(chunks(head, Buffer.alloc(1000 - head.length)), {
      maxBytes: 1000,
      sniff: sniffVideo,
      invalidMessage: 'no',
    });
    expect(await drain(ok.body)).toBe(1000);
    const over = await sniffStream(chunks(head, Buffer.alloc(1001 - head.length)), {
      maxBytes: 1000,
      sniff: sniffVideo,
      invalidMessage: 'no',
    });
    await expect(drain(over.body)).rejects.toThrow(
      new UploadRefusal('too_large', 'File is too large'),
    );
  });
});

describe('who may see and upload', () => {
  const owner = '00000000-0000-4000-8000-000000000001';
  const challenged = '00000000-0000-4000-8000-000000000002';
  const user = (id: string, roles: ('user' | 'moderator')[] = ['user']) =>
    ({ id, roles, tokenId: 't', issuedAt: 0, expiresAt: 0 }) as AuthUser;
  const access: ChallengeAccessRecord = {
    challengeId: video.challengeId,
    ownerId: owner,
    challengedUserId: challenged,
    status: 'accepted',
    visibility: 'private',
    hiddenAt: null,
    challengeType: 'solo',
    closedSides: [],
  };
  const stranger = user('00000000-0000-4000-8000-000000000003');

  it('shows a private challenge to its parties and staff only', () => {
    expect(mayViewChallenge(access, user(owner))).toBe(true);
    expect(mayViewChallenge(access, user(challenged))).toBe(true);
    expect(mayViewChallenge(access, stranger)).toBe(false);
    expect(mayViewChallenge(access, null)).toBe(false);
    expect(mayViewChallenge(access, user(stranger.id, ['moderator']))).toBe(true);
    expect(mayViewChallenge({ ...access, visibility: 'public' }, null)).toBe(true);
  });

  it('shows a hidden challenge, and one media does not know, to staff only', () => {
    const hidden = { ...access, visibility: 'public', hiddenAt: new Date() };
    expect(mayViewChallenge(hidden, user(owner))).toBe(false);
    expect(mayViewChallenge(hidden, user(owner, ['moderator']))).toBe(true);
    expect(mayViewChallenge(null, user(owner))).toBe(false);
  });

  it('lets only the challenged user of an accepted challenge upload', () => {
    expect(mayUploadProof(access, user(challenged))).toBe(true);
    expect(mayUploadProof(access, user(owner))).toBe(false);
    expect(mayUploadProof({ ...access, status: 'open' }, user(challenged))).toBe(false);
    expect(mayUploadProof({ ...access, hiddenAt: new Date() }, user(challenged))).toBe(false);
    // A challenge whose type media has not heard (older events) is a solo one.
    expect(mayUploadProof({ ...access, challengeType: null }, user(owner))).toBe(false);
  });

  it('lets both parties of an accepted duel upload, each while their own side waits for a video', () => {
    const duel = { ...access, challengeType: 'duel' };
    expect(mayUploadProof(duel, user(owner))).toBe(true);
    expect(mayUploadProof(duel, user(challenged))).toBe(true);
    expect(mayUploadProof(duel, stranger)).toBe(false);
    expect(mayUploadProof(duel, user(stranger.id, ['moderator']))).toBe(false);
    // The challenged user's video is in: the duel is in review, the owner's side still waits.
    const oneIn = { ...duel, status: 'review', closedSides: [challenged] };
    expect(mayUploadProof(oneIn, user(owner))).toBe(true);
    expect(mayUploadProof(oneIn, user(challenged))).toBe(false);
    expect(mayUploadProof({ ...oneIn, status: 'referee' }, user(owner))).toBe(true);
    for (const status of ['open', 'refused', 'completed', 'failed', 'cancelled', 'expired']) {
      expect(mayUploadProof({ ...duel, status }, user(owner))).toBe(false);
    }
    expect(mayUploadProof({ ...duel, hiddenAt: new Date() }, user(owner))).toBe(false);
  });
});

describe('environment', () => {
  const complete = {
    PORT: '4704',
    DATABASE_URL: 'postgresql://platform:platform@127.0.0.1:54329/media',
    REDIS_URL: 'redis://127.0.0.1:63799',
    KAFKA_BROKERS: '127.0.0.1:39092',
    JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\\nabc\\n-----END PUBLIC KEY-----',
    GATEWAY_SECRET: 'gateway-secret-of-this-env-test-0123456789',
    S3_ENDPOINT: 'http://127.0.0.1:39000',
    S3_ACCESS_KEY: 'minioadmin-local',
    S3_SECRET_KEY: 'minioadmin-local-secret',
    S3_BUCKET: 'challenge-media',
    IDENTITY_INTERNAL_URL: 'http://127.0.0.1:4701',
    CHALLENGE_INTERNAL_URL: 'http://127.0.0.1:4702',
    INTERNAL_API_TOKEN: 'local-internal-token-local-internal-token',
  };

  it('turns the S3 variables into the storage configuration', () => {
    expect(storageConfig(parseEnv(envSchema, complete))).toEqual({
      endpoint: 'http://127.0.0.1:39000',
      region: 'eu-west-1',
      accessKey: 'minioadmin-local',
      secretKey: 'minioadmin-local-secret',
      bucket: 'challenge-media',
    });
  });

  it('fails fast, naming each missing S3 variable', () => {
    const {
      S3_BUCKET: _bucket,
      S3_SECRET_KEY: _secret,
      IDENTITY_INTERNAL_URL: _identity,
      CHALLENGE_INTERNAL_URL: _challenge,
      ...incomplete
    } = complete;
    expect(() => parseEnv(envSchema, incomplete)).toThrow(
      expect.objectContaining({
        problems: expect.arrayContaining([
          expect.stringContaining('S3_BUCKET'),
          expect.stringContaining('S3_SECRET_KEY'),
          expect.stringContaining('IDENTITY_INTERNAL_URL'),
          expect.stringContaining('CHALLENGE_INTERNAL_URL'),
        ]),
      }),
    );
  });
});
