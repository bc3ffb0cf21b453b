import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLifecycle, createTokenVerifier } from '@challenge/kit';
import {
  JWT_ISSUER,
  TEST_GATEWAY_SECRET,
  graphql,
  readiness,
  stack,
  testKeys,
} from '@challenge/testing';
import { Kind, parse, type ObjectTypeDefinitionNode } from 'graphql';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, createGatewayRedis } from '../src/app.ts';
import { composeSupergraph, readSubgraphSdls } from '../src/supergraph.ts';

describe('supergraph composition', () => {
  it('composes every subgraph and exposes the operations built so far', () => {
    const supergraph = composeSupergraph();
    const query = parse(supergraph).definitions.find(
      (definition) =>
        definition.kind === Kind.OBJECT_TYPE_DEFINITION && definition.name.value === 'Query',
    ) as ObjectTypeDefinitionNode;
    const apiFields = query.fields?.map((field) => field.name.value);
    expect(apiFields).toEqual(
      expect.arrayContaining([
        'getCurrentUserProfile',
        'getWallet',
        'getChallengeBySlug',
        'paginatedListOfReports',
        'getEmailPreferences',
      ]),
    );
    for (const name of ['IDENTITY', 'CHALLENGE', 'WALLET', 'MEDIA', 'MODERATION', 'NOTIFICATION']) {
      expect(supergraph).toContain(`${name} @join__graph(name: "${name.toLowerCase()}"`);
    }
  });

  it('fails with the composition errors when two subgraphs disagree', () => {
    const broken = readSubgraphSdls().map((subgraph) =>
      subgraph.name === 'wallet'
        ? { ...subgraph, sdl: subgraph.sdl.replace('success: Boolean!', 'success: String!') }
        : subgraph,
    );
    expect(() => composeSupergraph(broken)).toThrow(
      /^Supergraph composition failed:\n- .*Status\.success/s,
    );
  });
});

describe('gateway HTTP surface', () => {
  const logger = pino({ level: 'silent' });
  const lifecycle = createLifecycle(logger, 5_000);
  let base: string;

  beforeAll(async () => {
    const web = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    mkdirSync(path.join(web, 'assets'));
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Challenge</title>');
    writeFileSync(path.join(web, 'assets', 'app-1234.js'), 'console.log(1)');
    writeFileSync(
      path.join(web, 'spa-routes.json'),
      JSON.stringify(['/', '/settings/edit-profile', '/profile/:username/ongoing-challenges']),
    );
    mkdirSync(path.join(web, 'builds'));
    writeFileSync(path.join(web, 'builds', 'latest.json'), '{"id":"b-1"}');
    const redis = createGatewayRedis(stack.redisUrl, logger);
    lifecycle.onStop('redis', async () => void (await redis.quit()));
    const unreachable = 'http://127.0.0.1:9/graphql';
    const gateway = await buildGateway({
      supergraphSdl: composeSupergraph(),
      subgraphUrls: {
        identity: unreachable,
        challenge: unreachable,
        wallet: unreachable,
        media: unreachable,
        moderation: unreachable,
        notification: unreachable,
      },
      gatewaySecret: TEST_GATEWAY_SECRET,
      verifier: await createTokenVerifier({
        publicKeyPem: (await testKeys()).publicKeyPem,
        issuer: JWT_ISSUER,
      }),
      logger,
      lifecycle,
      redis,
      publicOrigin: 'http://127.0.0.1',
      trustProxy: 'loopback',
      webDistDir: web,
      production: true,
      // The test talks over loopback, which a production geofence refuses (geofence tests).
      geofence: { enabled: true, allowPrivate: true },
    });
    base = await gateway.listen(0);
  });
  afterAll(() => lifecycle.stop('test finished'));

  it('serves the web app with security headers, and index.html for client-side routes', async () => {
    for (const route of ['/', '/profile/alice/ongoing-challenges', '/settings/edit-profile']) {
      const response = await fetch(`${base}${route}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<title>Challenge</title>');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('strict-transport-security')).toContain('max-age=');
      expect(response.headers.get('x-powered-by')).toBeNull();
    }
  });

  it("lets the page show the store's signed images and videos, over http too (local MinIO)", async () => {
    const policy = (await fetch(`${base}/`)).headers.get('content-security-policy') ?? '';
    const sources = (directive: string) =>
      policy
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .find(([name]) => name === directive)
        ?.slice(1);
    // Thumbnails on cards and video posters are images; the store is http locally and in compose.
    expect(sources('img-src')).toEqual(expect.arrayContaining(["'self'", 'https:', 'http:']));
    expect(sources('media-src')).toEqual(expect.arrayContaining(["'self'", 'https:', 'http:']));
    expect(sources('default-src')).toEqual(["'self'"]);
  });

  it('answers 404 with the SPA (its not-found page) for a path the app does not have', async () => {
    for (const route of [
      '/no-such-page',
      '/settings/nope',
      '/profile/alice/x/ongoing-challenges',
    ]) {
      const response = await fetch(`${base}${route}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('<title>Challenge</title>');
      expect(response.headers.get('content-type')).toContain('text/html');
    }
    const trailing = await fetch(`${base}/profile/Bob%20B/ongoing-challenges/`);
    expect(trailing.status).toBe(200);
  });

  it('never lets a browser cache the latest-build manifest', async () => {
    const response = await fetch(`${base}/builds/latest.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'b-1' });
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('caches hashed assets for a year', async () => {
    const response = await fetch(`${base}/assets/app-1234.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers a malformed body and a forged token with catalogue errors, never a stack trace', async () => {
    const malformed = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(malformed.status).toBe(400);
    const body = await malformed.text();
    expect(JSON.parse(body).errors[0].extensions.identifier).toBe('invalid_input');
    expect(body).not.toMatch(/node_modules|SyntaxError|\bat /);

    const forged = await graphql(
      `${base}/graphql`,
      '{ getWallet { status { success } } }',
      {},
      { token: 'x.y.z' },
    );
    expect(forged.httpStatus).toBe(401);
    expect(forged.errors?.[0]?.extensions?.identifier).toBe('unauthorized');
  });

  it('hides an unreachable subgraph behind generic_error', async () => {
    const response = await graphql(`${base}/graphql`, '{ getWallet { status { success } } }');
    expect(response.errors?.[0]).toMatchObject({ message: 'Something went wrong.' });
    expect(JSON.stringify(response)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:9/);
  });

  it('is ready when Redis answers', async () => {
    expect(await readiness(`${base}/graphql`)).toEqual({
      httpStatus: 200,
      body: { status: 'ready', checks: { redis: 'ok' } },
    });
  });
});
