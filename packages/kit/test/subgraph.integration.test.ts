import { randomUUID } from 'node:crypto';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackUrls } from '../../../scripts/lib/stack-config.mjs';
import {
  createTokenIssuer,
  createTokenVerifier,
  type TokenIssuer,
  type TokenVerifier,
} from '../src/auth.ts';
import { createLifecycle, type Lifecycle } from '../src/lifecycle.ts';
import { createRedis, pingRedis, type Redis } from '../src/redis.ts';
import { createSubgraph, type RequestContext, type Subgraph } from '../src/subgraph.ts';
import {
  captureLogger,
  GATEWAY_SECRET,
  GATEWAY_SECRET_HEADER,
  deferred,
  eventually,
  graphql,
  http,
  rsaKeyPair,
  type CapturedLogger,
} from './support.ts';

const typeDefs = parse(`
  type Query {
    me: String
    boom: String
    slow: String
    echo(text: String, list: [String]): String
  }
`);

const SECRET = 'db password hunter2 at /srv/internal/module.ts:42';

let redis: Redis;
let verifier: TokenVerifier;
let issuer: TokenIssuer;
let forger: TokenIssuer;
const redisLog = captureLogger();

beforeAll(async () => {
  const [keys, otherKeys] = await Promise.all([rsaKeyPair(), rsaKeyPair()]);
  verifier = await createTokenVerifier({ publicKeyPem: keys.publicKeyPem, issuer: 'kit-test' });
  issuer = await createTokenIssuer({
    privateKeyPem: keys.privateKeyPem,
    issuer: 'kit-test',
    ttlSeconds: 600,
  });
  forger = await createTokenIssuer({
    privateKeyPem: otherKeys.privateKeyPem,
    issuer: 'kit-test',
    ttlSeconds: 600,
  });
  redis = createRedis(stackUrls().redisUrl, redisLog.logger);
});

afterAll(async () => {
  await redis?.quit();
});

interface App {
  subgraph: Subgraph;
  url: string;
  base: string;
  lifecycle: Lifecycle;
  log: CapturedLogger;
  setFailing(failing: boolean): void;
  slow: { started: boolean; finished: boolean };
}

const apps: App[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.lifecycle.stop('test done')));
});

/**
 * A tiny subgraph on a free port, with a Redis readiness check and one that can be switched off;
 * it accepts `gatewaySecrets` (default: the tests' one).
 */
async function startApp(
  extraStopHook?: () => Promise<void>,
  gatewaySecrets: string[] = [GATEWAY_SECRET],
): Promise<App> {
  const log = captureLogger();
  const lifecycle = createLifecycle(log.logger, 15_000);
  let failing = false;
  const slow = { started: false, finished: false };
  const resolvers: GraphQLResolverMap<RequestContext> = {
    Query: {
      me: (_parent, _args, context: RequestContext) => context.user?.id ?? null,
      boom: () => {
        throw new Error(SECRET);
      },
      slow: async () => {
        slow.started = true;
        await new Promise((resolve) => setTimeout(resolve, 500));
        slow.finished = true;
        return 'done';
      },
      echo: (_parent, args: { text?: string }) => args.text ?? null,
    },
  };
  const subgraph = await createSubgraph<RequestContext>({
    name: 'kit-test',
    typeDefs,
    resolvers,
    logger: log.logger,
    lifecycle,
    verifier,
    readiness: {
      redis: () => pingRedis(redis),
      switchable: async () => {
        if (failing) throw new Error('switched off');
      },
    },
    extend: (base) => base,
    gatewaySecrets,
  });
  // Registered after the subgraph, so it runs before the HTTP server stops.
  if (extraStopHook) lifecycle.onStop('before http', extraStopHook);
  const url = await subgraph.listen(0);
  const app: App = {
    subgraph,
    url,
    base: url.replace(/\/graphql$/, ''),
    lifecycle,
    log,
    slow,
    setFailing: (f) => (failing = f),
  };
  apps.push(app);
  return app;
}

async function metricsOf(app: App): Promise<string[]> {
  const res = await http(`${app.base}/metrics`);
  expect(res.status).toBe(200);
  return res.body.split('\n');
}

interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

describe('subgraph', () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp();
  });

  it('answers /healthz', async () => {
    const res = await http(`${app.base}/healthz`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with every check, and 503 naming the check that fails', async () => {
    const ready = await http(`${app.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { redis: 'ok', switchable: 'ok' } });

    app.setFailing(true);
    try {
      const notReady = await http(`${app.base}/readyz`);
      expect(notReady.status).toBe(503);
      expect(notReady.json()).toEqual({
        status: 'not_ready',
        checks: { redis: 'ok', switchable: 'switched off' },
      });
    } finally {
      app.setFailing(false);
    }
    expect((await http(`${app.base}/readyz`)).status).toBe(200);
  });

  it('lets a valid token reach the resolver, and no token means no user', async () => {
    const id = randomUUID();
    const { token } = await issuer.issue({ id, roles: ['user'] });
    const res = await graphql(app.url, 'query Who { me }', token);
    expect(res.status).toBe(200);
    expect(res.json<GraphQLBody>()).toEqual({ data: { me: id } });
    expect((await graphql(app.url, '{ me }')).json<GraphQLBody>()).toEqual({ data: { me: null } });
  });

  it('answers GraphQL with its length, no ETag and no cache policy: no hash of every body, no hook on every field (docs/adr/0096)', async () => {
    const res = await graphql(app.url, '{ me }');
    expect(res.status).toBe(200);
    expect(res.json<GraphQLBody>()).toEqual({ data: { me: null } });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    expect(res.headers.etag).toBeUndefined();
    // Nor a cache policy worked out field by field: nothing here is cacheable (the gateway says
    // no-store to the browser itself).
    expect(res.headers['cache-control']).toBeUndefined();
    // The query string still reaches Apollo: a GET query runs (with Apollo's CSRF header).
    const get = await http(`${app.url}?query=${encodeURIComponent('{ me }')}`, {
      headers: { [GATEWAY_SECRET_HEADER]: GATEWAY_SECRET, 'apollo-require-preflight': '1' },
    });
    expect(get.json<GraphQLBody>()).toEqual({ data: { me: null } });
  });

  it('refuses a forged bearer token with HTTP 401 and identifier unauthorized', async () => {
    const { token } = await forger.issue({ id: randomUUID(), roles: ['admin'] });
    for (const bad of [token, 'not-a-jwt']) {
      const res = await graphql(app.url, '{ me }', bad);
      expect(res.status).toBe(401);
      const body = res.json<GraphQLBody>();
      expect(body.data ?? null).toBeNull();
      expect(body.errors?.[0]?.extensions).toMatchObject({
        code: 'UNAUTHENTICATED',
        identifier: 'unauthorized',
      });
    }
  });

  it('masks an unexpected resolver error as generic_error with no internals, and logs it', async () => {
    const res = await graphql(app.url, 'query Boom { boom }');
    const body = res.json<GraphQLBody>();
    expect(body.data).toEqual({ boom: null });
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.message).toBe('Something went wrong.');
    expect(body.errors?.[0]?.extensions).toEqual({
      code: 'INTERNAL_SERVER_ERROR',
      identifier: 'generic_error',
    });
    expect(res.body).not.toMatch(/hunter2|stacktrace|\.ts:\d+|\n\s+at /i);
    expect(app.log.text()).toContain('hunter2');
  });

  it('passes a validation error through with its own code', async () => {
    const res = await graphql(app.url, '{ nope }');
    expect(res.status).toBe(400);
    expect(res.json<GraphQLBody>().errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('refuses a NUL in any string, a variable or a literal, as invalid_input before a resolver runs (PostgreSQL text cannot hold one)', async () => {
    const send = (query: string, variables?: Record<string, unknown>) =>
      http(app.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [GATEWAY_SECRET_HEADER]: GATEWAY_SECRET },
        body: JSON.stringify({ query, variables }),
      });
    const refusals = [
      await send('query ($text: String) { echo(text: $text) }', { text: 'null\u0000byte' }),
      await send('query ($list: [String]) { echo(list: $list) }', { list: ['ok', 'a\u0000'] }),
      await send('{ echo(text: "a\\u0000b") }'),
      await send('{ echo(text: "a\\u{0}b") }'),
    ];
    for (const res of refusals) {
      // 200, so that the gateway passes the error on rather than reading a failed subgraph.
      expect(res.status).toBe(200);
      const body = res.json<GraphQLBody>();
      expect(body.data).toBeUndefined();
      expect(body.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        identifier: 'invalid_input',
      });
    }
    // A backslash and the letters u0000 are text like any other.
    const text = await send('query ($text: String) { echo(text: $text) }', { text: 'a\\u0000' });
    expect(text.json<GraphQLBody>().data).toEqual({ echo: 'a\\u0000' });
  });

  // Express's default error page would show a stack trace outside production.
  it('answers a malformed JSON body without a stack trace', async () => {
    app.subgraph.app.set('env', 'development');
    const res = await http(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [GATEWAY_SECRET_HEADER]: GATEWAY_SECRET },
      body: '{bad',
    });
    expect(res.status).toBe(400);
    expect(res.body).not.toMatch(/node_modules|\bat |SyntaxError/);
  });

  it('exposes request durations and GraphQL operation counts on /metrics', async () => {
    await http(`${app.base}/healthz`);
    await graphql(app.url, 'query Who { me }');
    await graphql(app.url, 'query Boom { boom }');
    const body = (await metricsOf(app)).join('\n');
    expect(body).toMatch(
      /^http_request_duration_seconds_count\{[^}]*route="\/healthz"[^}]*status="200"[^}]*\} [1-9]/m,
    );
    expect(body).toMatch(/^http_request_duration_seconds_bucket\{[^}]*le="0.005"/m);
    expect(body).toMatch(
      /^graphql_operations_total\{[^}]*operation="Who"[^}]*outcome="ok"[^}]*\} [1-9]/m,
    );
    expect(body).toMatch(
      /^graphql_operations_total\{[^}]*operation="Boom"[^}]*outcome="error"[^}]*\} [1-9]/m,
    );
  });

  // The mount strips '/graphql' from req.path: the label must be read before that.
  it('labels GraphQL requests with route="/graphql" in http_request_duration_seconds', async () => {
    await graphql(app.url, 'query Who { me }');
    const lines = await metricsOf(app);
    expect(
      lines.find((l) =>
        /^http_request_duration_seconds_count\{[^}]*route="\/graphql"[^}]*status="200"/.test(l),
      ),
    ).toBeDefined();
  });
});

describe('the gateway credential (docs/adr/0069)', () => {
  const NEW = 'the-new-gateway-secret-0123456789abcdef';
  const OLD = 'the-old-gateway-secret-0123456789abcdef';
  const forbidden = {
    errors: [
      { message: 'Access denied.', extensions: { code: 'FORBIDDEN', identifier: 'access_denied' } },
    ],
  };

  it('refuses a request without it or with a wrong one (403 access_denied), a valid user token notwithstanding', async () => {
    const app = await startApp();
    const { token } = await issuer.issue({ id: randomUUID(), roles: ['admin'] });
    for (const secret of [
      '',
      'wrong',
      GATEWAY_SECRET.toUpperCase(),
      `${GATEWAY_SECRET}x`,
      GATEWAY_SECRET.slice(0, -1),
      `Bearer ${GATEWAY_SECRET}`,
    ]) {
      for (const query of ['{ me }', '{ _service { sdl } }']) {
        const res = await graphql(app.url, query, token, { 'x-gateway-secret': secret });
        expect({ secret, query, status: res.status }).toEqual({ secret, query, status: 403 });
        expect(res.json()).toEqual(forbidden);
      }
    }
    // Its own secret as a bearer token is no credential either.
    const asBearer = await graphql(app.url, '{ me }', GATEWAY_SECRET, { 'x-gateway-secret': '' });
    expect(asBearer.status).toBe(403);
    const served = await graphql(app.url, '{ _service { sdl } }', token);
    expect(served.status).toBe(200);
    expect(served.body).toContain('me: String');
  });

  it('accepts the current and the previous secret during a rollover, and refuses the old one after it', async () => {
    const during = await startApp(undefined, [NEW, OLD]);
    for (const secret of [NEW, OLD]) {
      const res = await graphql(during.url, '{ me }', undefined, { 'x-gateway-secret': secret });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ data: { me: null } });
    }
    const after = await startApp(undefined, [NEW]);
    expect(
      (await graphql(after.url, '{ me }', undefined, { 'x-gateway-secret': NEW })).status,
    ).toBe(200);
    const rotatedOut = await graphql(after.url, '{ me }', undefined, { 'x-gateway-secret': OLD });
    expect(rotatedOut.status).toBe(403);
    expect(rotatedOut.json()).toEqual(forbidden);
  });

  it('refuses to start without a secret, or with one shorter than 32 characters', async () => {
    for (const gatewaySecrets of [[], ['short-secret']]) {
      await expect(startApp(undefined, gatewaySecrets)).rejects.toThrow(/gateway secret/i);
    }
  });

  it('leaves /healthz, /readyz and /metrics to the probes and the scraper (the network policy fences them)', async () => {
    const app = await startApp();
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect((await http(`${app.base}${path}`)).status).toBe(200);
    }
  });
});

describe('graceful stop', () => {
  it('says stopping on /readyz once stop has begun', async () => {
    const gate = deferred();
    const app = await startApp(() => gate.promise);
    const stopping = app.lifecycle.stop('test');
    try {
      const res = await http(`${app.base}/readyz`);
      expect(res.status).toBe(503);
      expect(res.json()).toEqual({ status: 'stopping' });
      expect((await http(`${app.base}/healthz`)).status).toBe(200); // alive, just not ready
    } finally {
      gate.resolve();
      await stopping;
    }
    await expect(http(`${app.base}/readyz`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('lets an in-flight request finish, then refuses new connections', async () => {
    const app = await startApp();
    const inFlight = graphql(app.url, '{ slow }');
    await eventually(() => expect(app.slow.started).toBe(true));
    const stopped = app.lifecycle.stop('test');
    expect(app.slow.finished).toBe(false);
    // The listener closes at once while the slow request is still running.
    await eventually(() =>
      expect(http(`${app.base}/healthz`)).rejects.toMatchObject({ code: 'ECONNREFUSED' }),
    );
    expect(app.slow.finished).toBe(false);
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.json<GraphQLBody>()).toEqual({ data: { slow: 'done' } });
    await stopped;
    await expect(graphql(app.url, '{ me }')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
