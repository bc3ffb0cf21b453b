import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBGRAPHS, type SubgraphName } from '../src/supergraph.ts';
import { US_IP, startPlatform, type TestPlatform } from './support.ts';

describe('image path /_ipx', () => {
  let platform: TestPlatform;
  let media: Server;
  let origin: string;
  const received: { method: string; path: string; ifNoneMatch: string | null }[] = [];
  const image = Buffer.alloc(200_000, 7);

  beforeAll(async () => {
    // Stands in for media's /_ipx: records what the gateway forwards, answers like media.
    media = createServer((req, res) => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        ifNoneMatch: (req.headers['if-none-match'] as string | undefined) ?? null,
      });
      if (req.url?.includes('missing')) return void res.writeHead(404).end('Not found');
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304).end();
      res.writeHead(200, {
        'content-type': 'image/webp',
        'content-length': String(image.length),
        'cache-control': 'public, max-age=86400',
        etag: '"v1"',
        'x-cache': 'hit',
        'set-cookie': 'should=not-pass',
      });
      res.end(req.method === 'HEAD' ? undefined : image);
    });
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
    const mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}/graphql`;
    platform = await startPlatform();
    const gateway = await platform.gateway({
      subgraphUrls: Object.fromEntries(
        SUBGRAPHS.map((name) => [
          name,
          name === 'media'
            ? mediaUrl
            : name === 'identity'
              ? platform.identityUrl
              : 'http://127.0.0.1:9',
        ]),
      ) as Record<SubgraphName, string>,
    });
    origin = new URL(gateway).origin;
  });
  afterAll(async () => {
    await platform?.stop();
    media?.close();
  });

  it('forwards the path to media unchanged and streams the image back with its caching headers', async () => {
    const response = await fetch(`${origin}/_ipx/w_320&f_webp&q_80/avatars/a.png`, {
      headers: { 'x-forwarded-for': US_IP },
    });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(image);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(response.headers.get('etag')).toBe('"v1"');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(received.at(-1)).toEqual({
      method: 'GET',
      path: '/_ipx/w_320&f_webp&q_80/avatars/a.png',
      ifNoneMatch: null,
    });
  });

  it('passes revalidation and not-found answers on', async () => {
    const revalidated = await fetch(`${origin}/_ipx/w_64/avatars/a.png`, {
      headers: { 'if-none-match': '"v1"' },
    });
    expect(revalidated.status).toBe(304);
    expect(received.at(-1)?.ifNoneMatch).toBe('"v1"');
    expect((await fetch(`${origin}/_ipx/w_64/avatars/missing.png`)).status).toBe(404);
  });

  it('answers only GET and HEAD', async () => {
    const head = await fetch(`${origin}/_ipx/w_64/avatars/a.png`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const before = received.length;
    const post = await fetch(`${origin}/_ipx/w_64/avatars/a.png`, { method: 'POST', body: 'x' });
    expect(post.status).not.toBe(200);
    expect(received.length).toBe(before);
  });
});
