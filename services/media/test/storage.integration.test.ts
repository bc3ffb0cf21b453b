import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { stack } from '@challenge/testing';
import { createStorage } from '../src/data/storage.ts';

/** The adapter against the real MinIO of the local stack. */
const storage = createStorage({ ...stack.s3, bucket: 'challenge-media-test' });
const written: string[] = [];
const newKey = (name: string) => {
  const key = `test/${randomUUID()}/${name}`;
  written.push(key);
  return key;
};

afterAll(async () => {
  await Promise.all(written.map((key) => storage.removeObject(key)));
});

describe('object storage adapter', () => {
  it('creates its bucket once and tolerates being asked again, concurrently', async () => {
    await Promise.all([storage.ensureBucket(), storage.ensureBucket(), storage.ensureBucket()]);
    await expect(storage.ping()).resolves.toBeUndefined();
  });

  it('stores bytes, reports their metadata and serves them through a presigned URL', async () => {
    await storage.ensureBucket();
    const key = newKey('clip.mp4');
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
    await storage.putObject(key, bytes, 'video/mp4');

    expect(await storage.statObject(key)).toMatchObject({
      size: bytes.length,
      contentType: 'video/mp4',
    });

    const url = await storage.presignedGetUrl(key, 60);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('accepts a stream of unknown length', async () => {
    await storage.ensureBucket();
    const key = newKey('streamed.webm');
    await storage.putObject(
      key,
      Readable.from([Buffer.from('part one, '), Buffer.from('part two')]),
      'video/webm',
    );
    const response = await fetch(await storage.presignedGetUrl(key, 60));
    expect(await response.text()).toBe('part one, part two');
  });

  it('makes a download URL an attachment with the given file name', async () => {
    await storage.ensureBucket();
    const key = newKey('clip.mov');
    await storage.putObject(key, Buffer.from('movie'), 'video/quicktime');
    const response = await fetch(
      await storage.presignedGetUrl(key, 60, { downloadAs: 'my "clip".mov' }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="my clip.mov"');
  });

  it('answers null for an object that does not exist, and refuses a tampered URL', async () => {
    await storage.ensureBucket();
    expect(await storage.statObject(`test/${randomUUID()}/missing.mp4`)).toBeNull();
    const key = newKey('signed.mp4');
    await storage.putObject(key, Buffer.from('x'), 'video/mp4');
    const url = new URL(await storage.presignedGetUrl(key, 60));
    url.pathname = url.pathname.replace('signed.mp4', 'other.mp4');
    expect((await fetch(url)).status).toBe(403);
  });

  it('refuses a URL lifetime outside what S3 allows', () => {
    expect(() => storage.presignedGetUrl('any', 0)).toThrow(RangeError);
    expect(() => storage.presignedGetUrl('any', 8 * 24 * 3600)).toThrow(RangeError);
  });

  it('fails its readiness probe when the bucket is missing or the credentials are wrong', async () => {
    const noBucket = createStorage({ ...stack.s3, bucket: `missing-${randomUUID().slice(0, 8)}` });
    await expect(noBucket.ping()).rejects.toThrow(/does not exist/);
    const badKey = createStorage({
      ...stack.s3,
      secretKey: 'wrong-secret',
      bucket: 'challenge-media-test',
    });
    await expect(badKey.ping()).rejects.toThrow();
  });
});
