import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rawRequest, tokenFor, traversalPaths } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBGRAPHS, type SubgraphName } from '../src/supergraph.ts';
import { startPlatform, type TestPlatform } from './support.ts';

/**
 * What the gateway forwards to media (issue 18): tus under /api/uploads/tus and images under
 * /_ipx are rebuilt from validated parts, so no dot segment, encoded slash or backslash can climb
 * to media's own /graphql, /metrics or /readyz; every forward carries the gateway's credential
 * (docs/adr/0069) and never one a client sent. Paths go on the wire raw (node:http): fetch would
 * resolve the dot segments before sending.
 */

const GATEWAY_SECRET = 'gateway-secret-of-this-test-0123456789abcdef';
const TUS_METHODS = ['POST', 'PATCH', 'HEAD', 'GET', 'DELETE', 'OPTIONS'];

describe('paths the gateway forwards to media', () => {
  let platform: TestPlatform;
  let media: Server;
  let origin: string;
  let bearer: string;
  /** Every request media received: method, path as sent, the credential header. */
  const received: { method: string; path: string; secret: string | undefined }[] = [];

  beforeAll(async () => {
    // Stands in for media: records what reaches it and answers everything with 200.
    media = createServer((req, res) => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        secret: req.headers['x-gateway-secret'] as string | undefined,
      });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('media'));
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
      gatewaySecret: GATEWAY_SECRET,
      // Thousands of requests from one address and user: the limits are tested elsewhere.
      graphqlRateLimit: { ip: 1_000_000, windowSeconds: 60 },
      graphqlUserRateLimit: { user: 1_000_000, windowSeconds: 60 },
      graphqlAddressCeiling: { ip: 1_000_000, windowSeconds: 60 },
      uploadRateLimit: { user: 1_000_000, windowSeconds: 60 },
    });
    origin = new URL(gateway).origin;
    bearer = `Bearer ${await tokenFor({ id: randomUUID() })}`;
  });
  afterAll(async () => {
    await platform?.stop();
    media?.close();
  });

  const tusHeaders = () => ({
    authorization: bearer,
    'tus-resumable': '1.0.0',
    'upload-length': '10',
    'content-type': 'application/offset+octet-stream',
    'upload-offset': '0',
    // A client may send one; only the gateway's own ever reaches media.
    'x-gateway-secret': 'forged-by-the-client',
  });

  /** Sends every path with every method; returns what was answered and what reached media. */
  async function ask(paths: string[], methods: string[], headers: Record<string, string>) {
    const before = received.length;
    const answers: string[] = [];
    for (const path of paths) {
      // The methods of one path at once: the order of what reaches media stays per path.
      const statuses = await Promise.all(
        methods.map(async (method) => {
          const body = method === 'PATCH' || method === 'POST' ? 'x'.repeat(10) : undefined;
          return (await rawRequest(origin, { method, path, headers, body })).status;
        }),
      );
      methods.forEach((method, i) => answers.push(`${method} ${path} -> ${statuses[i]}`));
    }
    const reached = received.slice(before).map((r) => `${r.method} ${r.path}`);
    return { answers, reached: reached.sort() };
  }

  it('forwards tus requests to /uploads/tus and /uploads/tus/<upload id> only, with the gateway credential', async () => {
    const id = randomUUID();
    const collection = await ask(['/api/uploads/tus', '/api/uploads/tus/'], ['POST'], tusHeaders());
    expect(collection.reached).toEqual(['POST /uploads/tus', 'POST /uploads/tus']);
    const upload = await ask(
      [`/api/uploads/tus/${id}`, `/api/uploads/tus/${id}?x=../../graphql`],
      ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'],
      tusHeaders(),
    );
    expect(upload.reached).toEqual(
      ['DELETE', 'HEAD', 'OPTIONS', 'PATCH'].flatMap((method) => [
        `${method} /uploads/tus/${id}`,
        `${method} /uploads/tus/${id}`,
      ]),
    );
    expect(new Set(received.map((r) => r.secret))).toEqual(new Set([GATEWAY_SECRET]));
  });

  it('refuses a method tus does not have there (GET, PUT; POST on an upload, PATCH on the collection) with 404', async () => {
    const { answers, reached } = await ask(
      ['/api/uploads/tus', `/api/uploads/tus/${randomUUID()}`],
      ['GET', 'PUT'],
      tusHeaders(),
    );
    const wrongPlace = [
      ...(await ask(['/api/uploads/tus'], ['PATCH', 'HEAD', 'DELETE'], tusHeaders())).answers,
      ...(await ask([`/api/uploads/tus/${randomUUID()}`], ['POST'], tusHeaders())).answers,
    ];
    expect(reached).toEqual([]);
    expect([...answers, ...wrongPlace].filter((line) => !line.endsWith('-> 404'))).toEqual([]);
  });

  it('refuses every dot segment, encoded slash and backslash under /api/uploads/tus with 400 or 404 and forwards none', async () => {
    const paths = [
      ...traversalPaths('/api/uploads/tus/'),
      ...traversalPaths(`/api/uploads/tus/${randomUUID()}/`),
      '/api/uploads/tus/not-an-upload-id',
      `/api/uploads/tus/${randomUUID()}/`,
      `/api/uploads/tus/${randomUUID()}/x`,
      `/api/uploads/tus/${randomUUID().toUpperCase()}`,
      `/api/uploads/tus/${randomUUID()}%00`,
      '/api/uploads/tus//',
      '/api/uploads/tus/%2e',
    ];
    for (const headers of [tusHeaders(), { 'tus-resumable': '1.0.0' }]) {
      const { answers, reached } = await ask(paths, TUS_METHODS, headers);
      expect(reached).toEqual([]);
      expect(answers.filter((line) => !/-> (400|404)$/.test(line))).toEqual([]);
    }
  });

  it('forwards an image request as /_ipx/<modifiers>/<source key>, rebuilt from its parsed parts', async () => {
    const { reached } = await ask(
      [
        '/_ipx/w_64&f_webp/avatars/a/b.png',
        '/_ipx/w_64%26f_webp/avatars/a/b.png?x=1',
        '/_ipx/w_128,q_60/avatars/u-1/p_2.webp',
      ],
      ['GET', 'HEAD'],
      { 'x-gateway-secret': 'forged-by-the-client' },
    );
    expect(reached).toEqual([
      'GET /_ipx/w_128,q_60/avatars/u-1/p_2.webp',
      'GET /_ipx/w_64&f_webp/avatars/a/b.png',
      'GET /_ipx/w_64&f_webp/avatars/a/b.png',
      'HEAD /_ipx/w_128,q_60/avatars/u-1/p_2.webp',
      'HEAD /_ipx/w_64&f_webp/avatars/a/b.png',
      'HEAD /_ipx/w_64&f_webp/avatars/a/b.png',
    ]);
    expect(new Set(received.map((r) => r.secret))).toEqual(new Set([GATEWAY_SECRET]));
  });

  it('refuses every dot segment, encoded slash and backslash under /_ipx with 400 or 404 and forwards none', async () => {
    const paths = [
      ...traversalPaths('/_ipx/'),
      ...traversalPaths('/_ipx/w_64/'),
      ...traversalPaths('/_ipx/w_64/avatars/'),
      '/_ipx/w_64/avatars/.hidden',
      '/_ipx/w_64/avatars/a%2fb.png',
      '/_ipx/w_64/avatars/a%5cb.png',
      '/_ipx/w_64/avatars//b.png',
      '/_ipx/w_64/avatars/a/',
      '/_ipx/w_64',
      '/_ipx/',
      '/_ipx/W_64/avatars/a.png',
      '/_ipx/w_64;x/avatars/a.png',
      '/_ipx/w_64/avatars/%252e%252e/a.png',
    ];
    const { answers, reached } = await ask(paths, ['GET', 'HEAD'], {});
    expect(reached).toEqual([]);
    expect(answers.filter((line) => !/-> (400|404)$/.test(line))).toEqual([]);
  });
});
