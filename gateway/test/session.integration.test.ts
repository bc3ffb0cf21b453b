import { markBanned, revokeToken } from '@challenge/kit';
import { tokenFor } from '@challenge/testing';
import { parseSetCookie } from 'cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeSupergraph } from '../src/supergraph.ts';
import {
  CODE,
  GB_IP,
  PASSWORD,
  PUBLIC_ORIGIN,
  identifierOf,
  post,
  startPlatform,
  type Answer,
  type TestPlatform,
} from './support.ts';

// What the web sends (web/src/modules/auth/graphql): it never selects accessToken.
const LOGIN = `mutation Login($input: LoginInput!) {
  login(input: $input) { status { success identifier message } }
}`;
const VERIFY_CODE = `mutation VerifyLoginCode($input: VerifyLoginCodeInput!) {
  verifyLoginCode(input: $input) { status { success identifier message } }
}`;
const LOGOUT = 'mutation Logout { logout { status { success identifier message } } }';
const WHO_AM_I = '{ whoAmI { userId } }';

/** A browser on the site, in Great Britain, sending its session cookie. */
const browser = (token: string, extra: Record<string, string> = {}) => ({
  'x-forwarded-for': GB_IP,
  cookie: `session=${token}`,
  origin: PUBLIC_ORIGIN,
  ...extra,
});
const fromGB = { 'x-forwarded-for': GB_IP };

function setCookies(answer: Answer) {
  return answer.headers.getSetCookie().map((header) => parseSetCookie(header));
}

/** The session token an answer set; fails the test when it set none. */
function sessionToken(answer: Answer): string {
  const value = setCookies(answer).find((cookie) => cookie.name === 'session')?.value;
  if (!value) throw new Error('no session cookie was set');
  return value;
}

const CLEARED = {
  name: 'session',
  value: '',
  maxAge: 0,
  path: '/',
  httpOnly: true,
  secure: true,
  sameSite: 'strict',
};

describe('session cookie', () => {
  let platform: TestPlatform;
  let base: string;

  beforeAll(async () => {
    platform = await startPlatform();
    // Production: Secure always; the clients are in GB (X-Forwarded-For from the loopback proxy).
    base = await platform.gateway({ production: true });
  });
  afterAll(() => platform.stop());

  it.each([
    ['login', LOGIN, { username: 'alice', password: PASSWORD }, 'alice'],
    ['verifyLoginCode', VERIFY_CODE, { email: 'bob@example.com', code: CODE }, 'bob@example.com'],
  ])(
    '%s sets the session cookie with every attribute, keeping the token out of the body',
    async (field, query, input, account) => {
      const answer = await post(base, query, { input }, fromGB);
      expect(answer.status).toBe(200);
      expect(answer.body.data[field].status.success).toBe(true);
      expect(Object.keys(answer.body.data[field])).toEqual(['status']);

      const [cookie, ...others] = setCookies(answer);
      expect(others).toEqual([]);
      expect(cookie).toEqual({
        name: 'session',
        value: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        maxAge: 7889238,
        path: '/',
        httpOnly: true,
        secure: true,
        sameSite: 'strict',
      });
      const user = await platform.verifier.verify(sessionToken(answer));
      expect(user.id).toBe(platform.userId(account));
    },
  );

  it('asks for the token in a way the real supergraph accepts (the web sends LOGIN as is)', async () => {
    // The checked-in supergraph, its identity routed to the test subgraph (same login shape).
    const real = await platform.gateway({ production: true, supergraphSdl: composeSupergraph() });
    const input = { username: 'olivia', password: PASSWORD };
    const answer = await post(real, LOGIN, { input }, fromGB);
    expect(answer.body).toEqual({
      data: { login: { status: { success: true, identifier: 'ok', message: 'OK' } } },
    });
    expect((await platform.verifier.verify(sessionToken(answer))).id).toBe(
      platform.userId('olivia'),
    );
  });

  it('sets no cookie when the credentials are refused', async () => {
    const answer = await post(base, LOGIN, { input: { username: 'alice', password: 'x' } }, fromGB);
    expect(answer.body.data.login.status.identifier).toBe('invalid_credentials');
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it('leaves accessToken in the body for a client that selects it, and still sets the cookie', async () => {
    const answer = await post(
      base,
      'mutation { login(input: { username: "carol", password: "Right-pass1!" }) { accessToken } }',
      {},
      fromGB,
    );
    const token = answer.body.data.login.accessToken;
    expect((await platform.verifier.verify(token)).id).toBe(platform.userId('carol'));
    expect(setCookies(answer)[0]?.value).toBe(token);
  });

  it('authenticates a request by its cookie, from the site origin or its Referer', async () => {
    const token = await tokenFor({ id: platform.userId('dave') });
    const byOrigin = await post(base, WHO_AM_I, {}, browser(token));
    expect(byOrigin.body.data.whoAmI.userId).toBe(platform.userId('dave'));

    const { origin: _origin, ...withoutOrigin } = browser(token);
    const byReferer = await post(
      base,
      WHO_AM_I,
      {},
      {
        ...withoutOrigin,
        referer: `${PUBLIC_ORIGIN}/wallet?tab=1`,
      },
    );
    expect(byReferer.body.data.whoAmI.userId).toBe(platform.userId('dave'));
  });

  it('never lets a signed-in answer be cached: no-store, though the subgraph sends no header (docs/adr/0096)', async () => {
    const token = await tokenFor({ id: platform.userId('dave') });
    const answer = await post(base, WHO_AM_I, {}, browser(token));
    expect(answer.body.data.whoAmI.userId).toBe(platform.userId('dave'));
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('etag')).toBeNull();
  });

  it('prefers a bearer Authorization header over the cookie, and needs no Origin for it', async () => {
    const cookieToken = await tokenFor({ id: platform.userId('erin') });
    const headerToken = await tokenFor({ id: platform.userId('frank') });
    const both = await post(
      base,
      WHO_AM_I,
      {},
      browser(cookieToken, { authorization: `Bearer ${headerToken}` }),
    );
    expect(both.body.data.whoAmI.userId).toBe(platform.userId('frank'));

    const headerOnly = await post(
      base,
      WHO_AM_I,
      {},
      {
        ...fromGB,
        authorization: `Bearer ${headerToken}`,
      },
    );
    expect(headerOnly.status).toBe(200);
    expect(headerOnly.body.data.whoAmI.userId).toBe(platform.userId('frank'));
  });

  it('refuses a cookie-authenticated request from another or no origin (CSRF)', async () => {
    const token = await tokenFor({ id: platform.userId('grace') });
    const { origin: _origin, ...noOrigin } = browser(token);
    for (const headers of [
      noOrigin,
      browser(token, { origin: 'https://evil.example' }),
      { ...noOrigin, referer: 'https://evil.example/challenge.example' },
      browser(token, { origin: 'http://challenge.example' }),
    ]) {
      const answer = await post(base, WHO_AM_I, {}, headers);
      expect(answer.status).toBe(403);
      expect(identifierOf(answer)).toBe('access_denied');
      expect(answer.body.data).toBeUndefined();
    }
  });

  it('clears the cookie on logout, after which the old token is refused and cleared again', async () => {
    const login = await post(
      base,
      LOGIN,
      { input: { username: 'heidi', password: PASSWORD } },
      fromGB,
    );
    const token = sessionToken(login);

    const logout = await post(base, LOGOUT, {}, browser(token));
    expect(logout.body.data.logout.status.success).toBe(true);
    expect(setCookies(logout)).toEqual([CLEARED]);

    const reuse = await post(base, WHO_AM_I, {}, browser(token));
    expect(reuse.status).toBe(401);
    expect(identifierOf(reuse)).toBe('unauthorized');
    expect(setCookies(reuse)).toEqual([CLEARED]);
  });

  it('does not clear the cookie when logout fails', async () => {
    const answer = await post(base, LOGOUT, {}, fromGB); // nobody logged in
    expect(answer.body.data.logout.status.success).toBe(false);
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a revoked token and a banned user with 401 and their identifiers', async () => {
    const revoked = await tokenFor({ id: platform.userId('ivan') });
    await revokeToken(platform.redis, await platform.verifier.verify(revoked));
    const banned = await tokenFor({ id: platform.userId('judy') });
    await markBanned(platform.redis, platform.userId('judy'), true);
    try {
      for (const [token, identifier] of [
        [revoked, 'unauthorized'],
        [banned, 'banned_user'],
      ] as const) {
        const byHeader = await post(
          base,
          WHO_AM_I,
          {},
          { ...fromGB, authorization: `Bearer ${token}` },
        );
        expect(byHeader.status).toBe(401);
        expect(identifierOf(byHeader)).toBe(identifier);
        const byCookie = await post(base, WHO_AM_I, {}, browser(token));
        expect(byCookie.status).toBe(401);
        expect(identifierOf(byCookie)).toBe(identifier);
        expect(setCookies(byCookie)).toEqual([CLEARED]);
      }
    } finally {
      await markBanned(platform.redis, platform.userId('judy'), false);
    }
  });

  it.each(['unauthorized', 'banned_user'] as const)(
    'turns a subgraph 401 (%s) into a gateway 401 that clears the cookie',
    async (identifier) => {
      const id = platform.userId(`refused-${identifier}`);
      platform.refusedAtSubgraph.set(id, identifier);
      const answer = await post(base, WHO_AM_I, {}, browser(await tokenFor({ id })));
      expect(answer.status).toBe(401);
      expect(answer.body.errors).toEqual([
        expect.objectContaining({
          extensions: expect.objectContaining({ code: 'UNAUTHENTICATED', identifier }),
        }),
      ]);
      expect(JSON.stringify(answer.body)).not.toContain(platform.identityUrl);
      expect(setCookies(answer)).toEqual([CLEARED]);
    },
  );
});

describe('session cookie in development', () => {
  let platform: TestPlatform;
  let base: string;

  beforeAll(async () => {
    platform = await startPlatform();
    base = await platform.gateway({ production: false });
  });
  afterAll(() => platform.stop());

  it('leaves Secure off only for plain http on a loopback host', async () => {
    const input = { username: 'kim', password: PASSWORD };
    const plain = await post(base, LOGIN, { input });
    expect(setCookies(plain)[0]).toMatchObject({ name: 'session', httpOnly: true });
    expect(setCookies(plain)[0]?.secure).toBeUndefined();

    // Behind the trusted (loopback) proxy that terminated TLS: Secure again.
    const https = await post(base, LOGIN, { input }, { 'x-forwarded-proto': 'https' });
    expect(setCookies(https)[0]?.secure).toBe(true);
  });
});
