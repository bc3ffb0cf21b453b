import { describe, expect, it } from 'vitest';
import { parseEnv, type Role } from '@challenge/kit';
import {
  downloadFileName,
  toVideoView,
  VIDEO_URL_TTL_SECONDS,
  type UrlSigner,
} from '../src/domain/videos.ts';
import { envSchema, storageConfig } from '../src/env.ts';
import type { VideoRecord } from '../src/data/videos.ts';

const video: VideoRecord = {
  id: '00000000-0000-4000-8000-00000000000a',
  challengeId: '00000000-0000-4000-8000-00000000000b',
  uploaderId: '00000000-0000-4000-8000-00000000000c',
  objectKey: 'videos/b/clip.MOV',
  thumbnailKey: null,
  aspectMode: 'landscape',
  status: 'ready',
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

describe('environment', () => {
  const complete = {
    PORT: '4704',
    DATABASE_URL: 'postgresql://platform:platform@127.0.0.1:54329/media',
    REDIS_URL: 'redis://127.0.0.1:63799',
    KAFKA_BROKERS: '127.0.0.1:39092',
    JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\\nabc\\n-----END PUBLIC KEY-----',
    S3_ENDPOINT: 'http://127.0.0.1:39000',
    S3_ACCESS_KEY: 'minioadmin-local',
    S3_SECRET_KEY: 'minioadmin-local-secret',
    S3_BUCKET: 'challenge-media',
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
    const { S3_BUCKET: _bucket, S3_SECRET_KEY: _secret, ...incomplete } = complete;
    expect(() => parseEnv(envSchema, incomplete)).toThrow(
      expect.objectContaining({
        problems: expect.arrayContaining([
          expect.stringContaining('S3_BUCKET'),
          expect.stringContaining('S3_SECRET_KEY'),
        ]),
      }),
    );
  });
});
