import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DE_IPV6,
  GB_IP,
  UNKNOWN_IP,
  US_IP,
  identifierOf,
  post,
  startPlatform,
  type TestPlatform,
} from './support.ts';

const QUERY = '{ whoAmI { status { success } } }';
const from = (ip: string) => ({ 'x-forwarded-for': ip });

async function location(base: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/api/location`, { headers });
  expect(response.status).toBe(200);
  return response.json();
}

describe('geofence', () => {
  let platform: TestPlatform;
  /** NODE_ENV test: loopback and private addresses pass. */
  let testEnv: string;
  /** Production: private addresses are refused. */
  let production: string;
  let web: string;

  beforeAll(async () => {
    web = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Challenge</title>');
    platform = await startPlatform();
    testEnv = await platform.gateway({ production: false });
    production = await platform.gateway({ production: true, webDistDir: web });
  });
  afterAll(() => platform.stop());

  it('lets European addresses through, IPv4 and IPv6', async () => {
    for (const ip of [GB_IP, DE_IPV6]) {
      const answer = await post(production, QUERY, {}, from(ip));
      expect(answer.status).toBe(200);
      expect(answer.body.data.whoAmI.status.success).toBe(true);
    }
  });

  it('refuses an address outside Europe with 403 access_denied_location', async () => {
    const answer = await post(production, QUERY, {}, from(US_IP));
    expect(answer.status).toBe(403);
    expect(identifierOf(answer)).toBe('access_denied_location');
    expect(answer.body.errors[0].message).toBe('This platform is only available in Europe.');
    expect(answer.body.data).toBeUndefined();
  });

  it('refuses a public address the database does not know with ip_lookup_failed', async () => {
    const answer = await post(production, QUERY, {}, from(UNKNOWN_IP));
    expect(answer.status).toBe(403);
    expect(identifierOf(answer)).toBe('ip_lookup_failed');
  });

  it('counts only the address the trusted proxy saw, not one the client prepended', async () => {
    // The loopback proxy appends the real peer (US); the client forged the GB entry before it.
    const answer = await post(production, QUERY, {}, from(`${GB_IP}, ${US_IP}`));
    expect(identifierOf(answer)).toBe('access_denied_location');

    const untrusted = await platform.gateway({ production: true, trustProxy: '10.0.0.0/8' });
    const forged = await post(untrusted, QUERY, {}, from(GB_IP)); // the peer is 127.0.0.1
    expect(forged.status).toBe(403);
    expect(identifierOf(forged)).toBe('ip_lookup_failed');
  });

  it('allows loopback and private addresses in development and test only', async () => {
    for (const headers of [{}, from('10.1.2.3'), from('192.168.1.5'), from('fd00::1')]) {
      expect((await post(testEnv, QUERY, {}, headers)).status).toBe(200);
      const refused = await post(production, QUERY, {}, headers);
      expect(refused.status).toBe(403);
      expect(identifierOf(refused)).toBe('ip_lookup_failed');
    }
    const allowPrivate = await platform.gateway({
      production: true,
      geofence: { enabled: true, allowPrivate: true },
    });
    expect((await post(allowPrivate, QUERY, {}, from('172.20.0.4'))).status).toBe(200);
    expect((await post(allowPrivate, QUERY, {}, from(US_IP))).status).toBe(403);
  });

  it('lets everyone through when disabled', async () => {
    const disabled = await platform.gateway({
      production: true,
      geofence: { enabled: false, allowPrivate: false },
    });
    expect((await post(disabled, QUERY, {}, from(US_IP))).status).toBe(200);
    expect((await post(disabled, QUERY, {}, from(UNKNOWN_IP))).status).toBe(200);
    expect(await location(disabled, from(US_IP))).toEqual({
      allowed: true,
      country: 'US',
      continent: 'NA',
      identifier: null,
    });
  });

  it('tells the web app its verdict at /api/location', async () => {
    expect(await location(production, from(GB_IP))).toEqual({
      allowed: true,
      country: 'GB',
      continent: 'EU',
      identifier: null,
    });
    expect(await location(production, from(US_IP))).toEqual({
      allowed: false,
      country: 'US',
      continent: 'NA',
      identifier: 'access_denied_location',
    });
    expect(await location(production, from(UNKNOWN_IP))).toEqual({
      allowed: false,
      country: null,
      continent: null,
      identifier: 'ip_lookup_failed',
    });
    expect(await location(production)).toMatchObject({
      allowed: false,
      identifier: 'ip_lookup_failed',
    });
    expect(await location(testEnv)).toEqual({
      allowed: true,
      country: null,
      continent: null,
      identifier: null,
    });
  });

  it('still serves the web app outside Europe, which shows its own access-denied page', async () => {
    const response = await fetch(`${production}/challenge/create`, { headers: from(US_IP) });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Challenge</title>');
  });

  it('never fences /healthz, /readyz and /metrics', async () => {
    // Loopback is refused on /graphql by this production gateway, but not here.
    expect((await post(production, QUERY)).status).toBe(403);
    for (const route of ['/healthz', '/readyz', '/metrics']) {
      expect((await fetch(`${production}${route}`)).status).toBe(200);
    }
    expect((await fetch(`${production}/healthz`, { headers: from(US_IP) })).status).toBe(200);
  });
});
