import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GB_IP, post, startPlatform, type TestPlatform } from './support.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';

describe('metrics and CORS', () => {
  let platform: TestPlatform;
  let base: string;

  beforeAll(async () => {
    platform = await startPlatform();
    base = await platform.gateway({
      metricsToken: METRICS_TOKEN,
      corsOrigins: ['https://staff.example'],
    });
  });
  afterAll(() => platform.stop());

  const metrics = (headers: Record<string, string> = {}) => fetch(`${base}/metrics`, { headers });

  it('serves /metrics to loopback and private addresses', async () => {
    for (const headers of [{}, { 'x-forwarded-for': '10.0.3.7' }] as Record<string, string>[]) {
      const response = await metrics(headers);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('graphql_operations_total');
    }
  });

  it('refuses /metrics to a public address unless it presents the metrics token', async () => {
    const publicClient = { 'x-forwarded-for': GB_IP };
    const refused = await metrics(publicClient);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      errors: [
        {
          message: 'Access denied.',
          extensions: { code: 'FORBIDDEN', identifier: 'access_denied' },
        },
      ],
    });
    expect((await metrics({ ...publicClient, authorization: 'Bearer wrong-token' })).status).toBe(
      403,
    );
    expect(
      (await metrics({ ...publicClient, authorization: `Bearer ${METRICS_TOKEN}` })).status,
    ).toBe(200);

    const withoutToken = await platform.gateway({});
    const response = await fetch(`${withoutToken}/metrics`, { headers: publicClient });
    expect(response.status).toBe(403);
  });

  it('tells a public address only whether it is ready; the checks go to whom /metrics goes', async () => {
    const readyz = (headers: Record<string, string>) => fetch(`${base}/readyz`, { headers });
    const publicClient = { 'x-forwarded-for': GB_IP };
    const answer = await readyz(publicClient);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 'ready' });
    for (const operator of [
      { 'x-forwarded-for': '10.0.3.7' },
      { ...publicClient, authorization: `Bearer ${METRICS_TOKEN}` },
    ]) {
      const detailed = await readyz(operator);
      expect(detailed.status).toBe(200);
      expect(await detailed.json()).toEqual({ status: 'ready', checks: { redis: 'ok' } });
    }
  });

  it('sends CORS headers only to the configured origins', async () => {
    const allowed = await post(
      base,
      '{ whoAmI { userId } }',
      {},
      { origin: 'https://staff.example' },
    );
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://staff.example');
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(allowed.headers.get('vary')).toContain('Origin');

    const other = await post(base, '{ whoAmI { userId } }', {}, { origin: 'https://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();

    const preflight = await fetch(`${base}/graphql`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://staff.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://staff.example');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');

    const evilPreflight = await fetch(`${base}/graphql`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(evilPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends no CORS headers at all without configured origins', async () => {
    const sameOriginOnly = await platform.gateway({});
    const answer = await post(
      sameOriginOnly,
      '{ whoAmI { userId } }',
      {},
      {
        origin: 'https://staff.example',
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});
