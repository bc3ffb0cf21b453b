import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  post,
  privateIp,
  startPlatform,
  uniqueEmail,
  type Answer,
  type TestPlatform,
} from './support.ts';

const REQUEST_LINK = `mutation RequestLoginLink($input: RequestLoginLinkInput!) {
  requestLoginLink(input: $input) { email status { success } }
}`;
const inlineRequestLink = (email: string) =>
  `mutation { requestLoginLink(input: { email: ${JSON.stringify(email)}, originUrl: "/" }) { status { success } } }`;
const LOGIN = `mutation Login($input: LoginInput!) { login(input: $input) { status { identifier } } }`;

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const requestLink = (base: string, email: string, ip: string) =>
  post(base, REQUEST_LINK, { input: { email, originUrl: '/' } }, from(ip));

function expectTooMany(answer: Answer, windowSeconds: number) {
  expect(answer.status).toBe(429);
  expect(answer.body.errors).toEqual([
    {
      message: 'Too many requests. Please wait a moment and try again.',
      extensions: { code: 'TOO_MANY_REQUESTS', identifier: 'too_many_requests' },
    },
  ]);
  expect(answer.body.data).toBeUndefined();
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('sign-in rate limits', () => {
  let platform: TestPlatform;
  let base: string;

  beforeAll(async () => {
    platform = await startPlatform();
    base = await platform.gateway(); // default limits, its own Redis key prefix
  });
  afterAll(() => platform.stop());

  it('refuses the 6th login-link request for one e-mail, however it is written', async () => {
    const ip = privateIp();
    const email = uniqueEmail();
    const spellings = [email, email.toUpperCase(), `  ${email} `];
    for (let i = 0; i < 5; i += 1) {
      const spelling = spellings[i % spellings.length]!;
      const answer =
        i % 2
          ? await requestLink(base, spelling, ip)
          : await post(base, inlineRequestLink(spelling), {}, from(ip));
      expect(answer.status).toBe(200);
      expect(answer.body.data.requestLoginLink.status.success).toBe(true);
    }
    expectTooMany(await requestLink(base, email, ip), 15 * 60);

    const other = await requestLink(base, uniqueEmail(), ip);
    expect(other.status).toBe(200);
    expect(other.body.data.requestLoginLink.status.success).toBe(true);
  });

  it('counts an account across addresses', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < 5; i += 1) {
      expect((await requestLink(base, email, privateIp())).status).toBe(200);
    }
    expectTooMany(await requestLink(base, email, privateIp()), 15 * 60);
  });

  it('refuses the 21st login-link request from one address, whatever the e-mail', async () => {
    const ip = privateIp();
    for (let i = 0; i < 20; i += 1) {
      expect((await requestLink(base, uniqueEmail(), ip)).status).toBe(200);
    }
    expectTooMany(await requestLink(base, uniqueEmail(), ip), 15 * 60);
    expect((await requestLink(base, uniqueEmail(), privateIp())).status).toBe(200);
  });

  it('counts every aliased root field, so one request cannot carry many attempts', async () => {
    const email = JSON.stringify(uniqueEmail());
    const fields = Array.from(
      { length: 6 },
      (_, i) => `a${i}: requestLoginLink(input: { email: ${email}, originUrl: "/" }) { email }`,
    );
    expectTooMany(await post(base, `mutation { ${fields.join(' ')} }`, {}, from(privateIp())), 900);
  });

  it('refuses the 11th login for one username, even with the right password', async () => {
    const ip = privateIp();
    const username = `user-${Date.now()}`;
    for (let i = 0; i < 10; i += 1) {
      const answer = await post(base, LOGIN, { input: { username, password: 'wrong' } }, from(ip));
      expect(answer.body.data.login.status.identifier).toBe('invalid_credentials');
    }
    const right = await post(base, LOGIN, { input: { username, password: PASSWORD } }, from(ip));
    expectTooMany(right, 15 * 60);
    expect(right.headers.getSetCookie()).toEqual([]);
  });

  it('refuses the 6th sign-up completion (verifyUser) for one e-mail, from any address', async () => {
    const email = uniqueEmail();
    const verifyUser = (ip: string) =>
      post(
        base,
        `mutation($input: VerifyUserInput!) { verifyUser(input: $input) { status { identifier } } }`,
        { input: { email, code: '000000', username: 'someone' } },
        from(ip),
      );
    for (let i = 0; i < 5; i += 1) {
      const answer = await verifyUser(privateIp());
      expect(answer.body.data.verifyUser.status.identifier).toBe('invalid_credentials');
    }
    expectTooMany(await verifyUser(privateIp()), 60 * 60);
  });

  it('leaves other operations alone', async () => {
    const ip = privateIp();
    for (let i = 0; i < 25; i += 1) {
      expect((await post(base, '{ whoAmI { userId } }', {}, from(ip))).status).toBe(200);
    }
  });

  it('applies configured limits', async () => {
    const strict = await platform.gateway({
      rateLimits: {
        ...(await import('../src/rate-limit-rules.ts')).DEFAULT_RATE_LIMITS,
        requestLoginLink: { account: null, ip: 2, windowSeconds: 60 },
      },
    });
    const ip = privateIp();
    expect((await requestLink(strict, uniqueEmail(), ip)).status).toBe(200);
    expect((await requestLink(strict, uniqueEmail(), ip)).status).toBe(200);
    expectTooMany(await requestLink(strict, uniqueEmail(), ip), 60);
  });

  it('lets requests through when Redis is unreachable (fail open)', async () => {
    const broken = new Redis('redis://127.0.0.1:9', {
      // As the gateway's own client sends (docs/adr/0106).
      enableAutoPipelining: true,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    broken.on('error', () => {});
    const failOpen = await platform.gateway({ redis: broken });
    const email = uniqueEmail();
    const started = Date.now();
    for (let i = 0; i < 7; i += 1) {
      const answer = await requestLink(failOpen, email, '10.9.9.9');
      expect(answer.status).toBe(200);
      expect(answer.body.data.requestLoginLink.status.success).toBe(true);
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    broken.disconnect();
  });
});
