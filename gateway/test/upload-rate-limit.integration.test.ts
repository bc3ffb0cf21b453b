import { randomUUID } from 'node:crypto';
import { tokenFor } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from './support.ts';

/**
 * New uploads per user (ADR 52): GraphQL multipart uploads and tus creations share one budget
 * in Redis; resuming (HEAD, PATCH) does not count. Media is absent in this platform, so a request
 * the limit lets through ends in 502 from the forwarder: anything but 429.
 */
describe('the per-user upload limit', () => {
  let platform: TestPlatform;
  let base: string;
  const LIMIT = 2;

  beforeAll(async () => {
    platform = await startPlatform();
    base = await platform.gateway({ uploadRateLimit: { user: LIMIT, windowSeconds: 600 } });
  });
  afterAll(() => platform.stop());

  const bearer = async (id: string) => ({ authorization: `Bearer ${await tokenFor({ id })}` });
  const createTus = (headers: Record<string, string>) =>
    fetch(`${base}/api/uploads/tus`, {
      method: 'POST',
      headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-length': '1000' },
    });
  const multipart = (headers: Record<string, string>) => {
    const body = new FormData();
    body.append('operations', JSON.stringify({ query: 'mutation { x }', variables: {} }));
    body.append('map', '{}');
    body.append('0', new Blob([new Uint8Array(1024 * 1024)]), 'proof.mp4');
    return fetch(`${base}/graphql`, { method: 'POST', headers, body });
  };

  it('counts multipart uploads and tus creations together per user; over it, 429 with Retry-After', async () => {
    const user = await bearer(randomUUID());
    expect((await createTus(user)).status).not.toBe(429);
    expect((await multipart(user)).status).not.toBe(429);
    for (const refused of [await createTus(user), await multipart(user)]) {
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(await refused.json()).toEqual({
        errors: [
          {
            message: 'Too many requests. Please wait a moment and try again.',
            extensions: { code: 'TOO_MANY_REQUESTS', identifier: 'too_many_requests' },
          },
        ],
      });
    }
    // Another user has a budget of their own.
    expect((await createTus(await bearer(randomUUID()))).status).not.toBe(429);
  });

  it('resuming an upload (HEAD, PATCH) and anonymous requests are not counted per user', async () => {
    const user = await bearer(randomUUID());
    const session = `${base}/api/uploads/tus/${randomUUID()}`;
    for (let i = 0; i < LIMIT + 2; i += 1) {
      const head = await fetch(session, {
        method: 'HEAD',
        headers: { ...user, 'tus-resumable': '1.0.0' },
      });
      expect(head.status).not.toBe(429);
      const patch = await fetch(session, {
        method: 'PATCH',
        headers: {
          ...user,
          'tus-resumable': '1.0.0',
          'content-type': 'application/offset+octet-stream',
          'upload-offset': '0',
        },
        body: new Uint8Array(10),
      });
      expect(patch.status).not.toBe(429);
    }
    for (let i = 0; i < LIMIT + 1; i += 1) {
      expect((await createTus({})).status).not.toBe(429);
    }
    // The user's own budget is still whole.
    expect((await createTus(user)).status).not.toBe(429);
    expect((await createTus(user)).status).not.toBe(429);
    expect((await createTus(user)).status).toBe(429);
  });
});
