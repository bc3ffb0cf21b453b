import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteTopics,
  fromGateway,
  stack,
  startTestService,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { buildApp, type MediaApp } from '../src/app.ts';

const topicPrefix = uniqueTopicPrefix();
const storageConfig = { ...stack.s3, bucket: 'challenge-media-test' };
let service: TestService<MediaApp>;
let origin: string;
const written: string[] = [];

beforeAll(async () => {
  service = await startTestService(
    'media',
    (runtime, url) => buildApp(runtime, url, storageConfig),
    { topicPrefix },
  );
  origin = new URL(service.url).origin;
});

afterAll(async () => {
  const storage = service?.app.storage;
  // The renditions live beside nothing else: under cache/ipx/<source key>/.
  const cached = await Promise.all(written.map((key) => storage?.listKeys(`cache/ipx/${key}/`)));
  await Promise.all(
    [...written, ...cached.flat()].map((key) =>
      key ? storage?.removeObject(key).catch(() => undefined) : undefined,
    ),
  );
  await service?.stop();
  await deleteTopics(topicPrefix);
});

/** A 1200 x 800 PNG with some detail, as an avatar upload leaves it in the bucket. */
async function avatar(): Promise<string> {
  const key = `avatars/${randomUUID()}.png`;
  const png = await sharp({
    create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 40, b: 90 } },
  })
    .composite([
      {
        input: await sharp({
          create: { width: 400, height: 300, channels: 3, background: { r: 10, g: 200, b: 30 } },
        })
          .png()
          .toBuffer(),
        top: 100,
        left: 100,
      },
    ])
    .png()
    .toBuffer();
  await service.app.storage.putObject(key, png, 'image/png');
  written.push(key);
  return key;
}

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${origin}${path}`, { headers: { ...fromGateway(), ...headers } });

describe('GET /_ipx (image resizing)', () => {
  it('serves a WebP of the asked width and quality, at densities 1 and 2, from a cache after the first time', async () => {
    const key = await avatar();
    for (const width of [320, 640]) {
      const first = await get(`/_ipx/w_${width}&f_webp&q_80/${key}`);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('image/webp');
      // A rendition's URL names the picture's key (a new upload is a new key): kept for a month,
      // then revalidated by its ETag (issue 22).
      const maxAge = Number(
        /^public, max-age=(\d+)/.exec(first.headers.get('cache-control') ?? '')?.[1],
      );
      expect(maxAge).toBeGreaterThanOrEqual(30 * 24 * 3600);
      expect(first.headers.get('x-cache')).toBe('miss');
      const image = await sharp(Buffer.from(await first.arrayBuffer())).metadata();
      expect(image).toMatchObject({ format: 'webp', width, height: Math.round((width * 2) / 3) });

      const second = await get(`/_ipx/w_${width}&f_webp&q_80/${key}`);
      expect(second.status).toBe(200);
      expect(second.headers.get('x-cache')).toBe('hit');
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      const revalidated = await get(`/_ipx/w_${width}&f_webp&q_80/${key}`, {
        'if-none-match': first.headers.get('etag')!,
      });
      expect(revalidated.status).toBe(304);
    }
  });

  it('accepts comma-separated modifiers and defaults the format and quality, never enlarges', async () => {
    const key = await avatar();
    const response = await get(`/_ipx/w_2048/${key}`);
    expect(response.status).toBe(200);
    const image = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(image).toMatchObject({ format: 'webp', width: 1200 });
    expect((await get(`/_ipx/w_128,q_60,f_webp/${key}`)).status).toBe(200);
  });

  it('refuses sizes, formats and qualities outside the bounded set, so it cannot be used to burn CPU', async () => {
    const key = await avatar();
    for (const modifiers of [
      'w_321&f_webp&q_80',
      'w_100000',
      'w_320&f_png',
      'w_320&q_81',
      'w_320&blur_40',
      'w_320&w_640',
      's_5000x5000',
      '_',
    ]) {
      const response = await get(`/_ipx/${modifiers}/${key}`);
      expect(response.status, modifiers).toBe(400);
    }
  });

  it('serves the gateway only: without its credential, 403 (ADR 69)', async () => {
    const key = await avatar();
    const response = await fetch(`${origin}/_ipx/w_64/${key}`);
    expect(response.status).toBe(403);
    expect((await get(`/_ipx/w_64/${key}`)).status).toBe(200);
  });

  it('serves only avatars: not videos, thumbnails of private challenges, or paths that climb out', async () => {
    const id = randomUUID();
    await service.app.storage.putObject(
      `videos/${id}/thumbnail.webp`,
      Buffer.from('x'),
      'image/webp',
    );
    written.push(`videos/${id}/thumbnail.webp`);
    expect((await get(`/_ipx/w_320/videos/${id}/thumbnail.webp`)).status).toBe(404);
    expect((await get(`/_ipx/w_320/avatars/../videos/${id}/thumbnail.webp`)).status).toBe(404);
    expect((await get(`/_ipx/w_320/avatars/%2e%2e/videos/${id}/thumbnail.webp`)).status).toBe(404);
    expect((await get(`/_ipx/w_320/avatars/${randomUUID()}.png`)).status).toBe(404);
  });

  it('reads sources only as JPEG, PNG or WebP (no SVG and its references)', async () => {
    const key = `avatars/${randomUUID()}.png`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="red"/></svg>`;
    await service.app.storage.putObject(key, Buffer.from(svg), 'image/png');
    written.push(key);
    expect((await get(`/_ipx/w_320/${key}`)).status).toBe(415);
  });

  it('answers 415, not a crash, for an avatar that is not an image', async () => {
    const key = `avatars/${randomUUID()}.png`;
    await service.app.storage.putObject(key, Buffer.from('not an image at all'), 'image/png');
    written.push(key);
    const response = await get(`/_ipx/w_320/${key}`);
    expect(response.status).toBe(415);
    expect(await response.text()).not.toMatch(/at .*\.ts/);
    // And the service is still there.
    expect((await get(`/_ipx/w_320/${await avatar()}`)).status).toBe(200);
  });
});
