import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { stack } from '@challenge/testing';
import { createHash } from 'node:crypto';
import { createStorage, PRESIGN_WINDOW_SECONDS, UPLOAD_PART_BYTES } from '../src/data/storage.ts';

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

  it('signs one URL per window, which the browser may keep until it expires (issue 22)', async () => {
    await storage.ensureBucket();
    const key = newKey('cached.mp4');
    await storage.putObject(key, Buffer.from('video'), 'video/mp4');
    const windowMs = PRESIGN_WINDOW_SECONDS * 1000;
    const windowStart = Math.floor(Date.now() / windowMs) * windowMs;
    const at = (ms: number) =>
      createStorage(
        { ...stack.s3, bucket: 'challenge-media-test' },
        {
          now: () => new Date(ms),
        },
      );
    const lifetime = 3600;
    const early = await at(windowStart + 1000).presignedGetUrl(key, lifetime);
    const late = await at(windowStart + windowMs - 1000).presignedGetUrl(key, lifetime);
    const next = await at(windowStart + windowMs).presignedGetUrl(key, lifetime);
    // The same page asked twice in a window names the same URL: the browser's copy serves it.
    expect(late).toBe(early);
    expect(next).not.toBe(early);
    // Valid for at least the lifetime asked for, from any moment of its window.
    const signed = new URL(early);
    expect(Number(signed.searchParams.get('X-Amz-Expires'))).toBe(
      lifetime + PRESIGN_WINDOW_SECONDS,
    );
    const response = await fetch(early);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('video');
    // Cached by the browser alone (the content may be a hidden challenge's) until the URL expires.
    expect(response.headers.get('cache-control')).toBe('private');
    const expires = Date.parse(response.headers.get('expires') ?? '');
    expect(expires).toBe(windowStart + (lifetime + PRESIGN_WINDOW_SECONDS) * 1000);
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

  describe('uploadStream', () => {
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    const bytesOf = (size: number) =>
      Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + (i >> 11)) % 256));
    async function* inChunks(bytes: Buffer, size = 64 * 1024) {
      for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
    }
    const stored = async (key: string) =>
      Buffer.from(await (await fetch(await storage.presignedGetUrl(key, 60))).arrayBuffer());

    it('stores a body of several parts whole, in order, as one object', async () => {
      const key = newKey('multi.mp4');
      const bytes = bytesOf(2 * UPLOAD_PART_BYTES + 12_345);
      expect(await storage.uploadStream(key, inChunks(bytes), 'video/mp4')).toBe(bytes.length);
      expect(await storage.statObject(key)).toMatchObject({
        size: bytes.length,
        contentType: 'video/mp4',
      });
      expect(sha256(await stored(key))).toBe(sha256(bytes));
    });

    it('stores a small body with one request', async () => {
      const key = newKey('small.webm');
      expect(await storage.uploadStream(key, inChunks(bytesOf(1000)), 'video/webm')).toBe(1000);
      expect(await storage.statObject(key)).toMatchObject({ size: 1000 });
    });

    it('a body that fails after some parts leaves neither an object nor parts behind', async () => {
      const key = newKey('broken.mp4');
      async function* failing() {
        yield* inChunks(bytesOf(2 * UPLOAD_PART_BYTES + 1));
        throw new Error('connection cut');
      }
      await expect(storage.uploadStream(key, failing(), 'video/mp4')).rejects.toThrow(
        'connection cut',
      );
      expect(await storage.statObject(key)).toBeNull();
      expect(await storage.listIncompleteUploads(key)).toEqual([]);
    });
  });

  it('signs URLs for the public endpoint when one is set, without asking it anything', async () => {
    const publicStorage = createStorage({
      ...stack.s3,
      bucket: 'challenge-media-test',
      publicEndpoint: 'https://media.example.test',
    });
    const url = new URL(await publicStorage.presignedGetUrl('videos/x/original.mp4', 60));
    expect(url.origin).toBe('https://media.example.test');
    expect(url.pathname).toBe('/challenge-media-test/videos/x/original.mp4');
  });
});
