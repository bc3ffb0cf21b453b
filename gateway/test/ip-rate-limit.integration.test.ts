import { randomBytes, randomUUID } from 'node:crypto';
import { createRedis } from '@challenge/kit';
import { stack, tokenFor } from '@challenge/testing';
import { pino } from 'pino';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_GRAPHQL_ADDRESS_CEILING,
  DEFAULT_GRAPHQL_RATE_LIMIT,
  DEFAULT_GRAPHQL_USER_RATE_LIMIT,
} from '../src/rate-limit-rules.ts';
import { countAndRead, createGatewayRedis, ipCounter } from '../src/rate-limit.ts';
import {
  post,
  privateIp,
  startPlatform,
  uniqueEmail,
  type Answer,
  type TestPlatform,
} from './support.ts';

const WHO = '{ whoAmI { userId } }';
const REQUEST_LINK = `mutation RequestLoginLink($input: RequestLoginLinkInput!) {
  requestLoginLink(input: $input) { email status { success } }
}`;
const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** A private IPv6 /64 of its own per test (fd00::/8, unique local), as its first four groups. */
const privateNetwork64 = () =>
  `fd${randomBytes(7)
    .toString('hex')
    .replace(/(.{2})(.{4})(.{4})(.{4})/, '$1:$2:$3:$4')}`;

function expectTooMany(answer: Answer, windowSeconds: number) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({
    errors: [
      {
        message: 'Too many requests. Please wait a moment and try again.',
        extensions: { code: 'TOO_MANY_REQUESTS', identifier: 'too_many_requests' },
      },
    ],
  });
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('general per-IP rate limit on /graphql', () => {
  let platform: TestPlatform;
  let base: string;
  const LIMIT = 5;

  beforeAll(async () => {
    platform = await startPlatform();
    base = await platform.gateway({ graphqlRateLimit: { ip: LIMIT, windowSeconds: 60 } });
  });
  afterAll(() => platform.stop());

  it('is generous by default: the web bursts fit many times over', () => {
    expect(DEFAULT_GRAPHQL_RATE_LIMIT).toEqual({ ip: 600, windowSeconds: 60 });
  });

  it('refuses a burst over the limit with 429 and Retry-After, per address', async () => {
    const ip = privateIp();
    for (let i = 0; i < LIMIT; i += 1) {
      const answer = await post(base, WHO, {}, from(ip));
      expect(answer.status).toBe(200);
      expect(answer.body.data.whoAmI).toEqual({ userId: null });
    }
    expectTooMany(await post(base, WHO, {}, from(ip)), 60);
    // Any request counts, also one that does not parse.
    expectTooMany(await post(base, '{', {}, from(ip)), 60);
    expect((await post(base, WHO, {}, from(privateIp()))).status).toBe(200);
  });

  it('counts IPv6 clients per /64: two addresses in one /64 share a bucket', async () => {
    const network = privateNetwork64();
    for (let i = 0; i < LIMIT; i += 1) {
      const address =
        i % 2 ? `${network}::${i + 1}` : `${network}:${randomBytes(2).toString('hex')}::1`;
      expect((await post(base, WHO, {}, from(address))).status).toBe(200);
    }
    expectTooMany(await post(base, WHO, {}, from(`${network}:ffff:ffff:ffff:ffff`)), 60);
    // The neighbouring /64 is another client.
    const neighbour = network.replace(/[0-9a-f]$/, (digit) =>
      ((parseInt(digit, 16) + 1) % 16).toString(16),
    );
    expect((await post(base, WHO, {}, from(`${neighbour}::1`))).status).toBe(200);
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
    const failOpen = await platform.gateway({
      redis: broken,
      graphqlRateLimit: { ip: 1, windowSeconds: 60 },
    });
    for (let i = 0; i < 3; i += 1) {
      expect((await post(failOpen, WHO, {}, from('10.9.9.9'))).status).toBe(200);
    }
    broken.disconnect();
  });
});

/**
 * Issue 22, point 3: a household, an office or a mobile carrier shares one address. Signed-in
 * traffic counts per user, so one busy account cannot throttle the others behind its address;
 * anonymous traffic still counts per address, and a ceiling per address stops a flood of any kind.
 */
describe('signed-in traffic on /graphql is limited per user', () => {
  let platform: TestPlatform;
  let base: string;
  const LIMIT = 4;
  const CEILING = 12;
  const signedIn = async (ip: string, id = randomUUID()) => ({
    ...from(ip),
    authorization: `Bearer ${await tokenFor({ id })}`,
  });

  beforeAll(async () => {
    platform = await startPlatform();
    base = await platform.gateway({
      graphqlRateLimit: { ip: LIMIT, windowSeconds: 60 },
      graphqlUserRateLimit: { user: LIMIT, windowSeconds: 60 },
      graphqlAddressCeiling: { ip: CEILING, windowSeconds: 60 },
    });
  });
  afterAll(() => platform.stop());

  it('is generous by default, and the ceiling per address is far above one user', () => {
    expect(DEFAULT_GRAPHQL_USER_RATE_LIMIT).toEqual({ user: 600, windowSeconds: 60 });
    expect(DEFAULT_GRAPHQL_ADDRESS_CEILING.ip).toBeGreaterThanOrEqual(
      10 * DEFAULT_GRAPHQL_RATE_LIMIT.ip,
    );
  });

  it('counts each signed-in user on their own, not the address they share', async () => {
    const ip = privateIp();
    const aliceId = randomUUID();
    const alice = await signedIn(ip, aliceId);
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await post(base, WHO, {}, alice)).status).toBe(200);
    }
    expectTooMany(await post(base, WHO, {}, alice), 60);
    // Bob behind the same address is not throttled by Alice's requests ...
    const bob = await signedIn(ip);
    const answer = await post(base, WHO, {}, bob);
    expect(answer.status).toBe(200);
    expect(answer.body.data.whoAmI.userId).not.toBeNull();
    // ... and Alice is refused from any address: the budget is hers.
    expectTooMany(await post(base, WHO, {}, await signedIn(privateIp(), aliceId)), 60);
  });

  it('still counts anonymous requests per address, apart from the signed-in ones', async () => {
    const ip = privateIp();
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await post(base, WHO, {}, from(ip))).status).toBe(200);
    }
    expectTooMany(await post(base, WHO, {}, from(ip)), 60);
    expect((await post(base, WHO, {}, await signedIn(ip))).status).toBe(200);
  });

  it('stops a flood from one address whatever tokens it carries', async () => {
    const ip = privateIp();
    for (let i = 0; i < CEILING; i += 1) {
      expect((await post(base, WHO, {}, await signedIn(ip))).status).toBe(200);
    }
    expectTooMany(await post(base, WHO, {}, await signedIn(ip)), 60);
    // Tokens that do not verify count against the ceiling too.
    expectTooMany(await post(base, WHO, {}, { ...from(ip), authorization: 'Bearer nonsense' }), 60);
  });
});

/**
 * Issue 21: the limits and the token's state (revoked, ended session, banned) were three Redis
 * round trips per request (the ceiling, the token state, the per-client count); one does it all
 * (docs/adr/0088), the limits above and the refusals of session.integration.test.ts unchanged.
 */
describe('what a request costs in Redis', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startPlatform();
  });
  afterAll(() => platform.stop());

  it('is one round trip for a signed-in request and one for an anonymous one', async () => {
    const redis = createRedis(stack.redisUrl, pino({ level: 'silent' }));
    const sent: string[] = [];
    const sendCommand = redis.sendCommand.bind(redis);
    redis.sendCommand = ((command, stream) => {
      sent.push(command.name);
      return sendCommand(command, stream);
    }) as typeof redis.sendCommand;
    try {
      const base = await platform.gateway({ redis });
      const ip = privateIp();
      const signedIn = {
        ...from(ip),
        authorization: `Bearer ${await tokenFor({ id: randomUUID() })}`,
      };
      // The first request may load the counting script into Redis.
      expect((await post(base, WHO, {}, signedIn)).status).toBe(200);
      sent.length = 0;
      const answer = await post(base, WHO, {}, signedIn);
      expect(answer.status).toBe(200);
      expect(answer.body.data.whoAmI.userId).not.toBeNull();
      expect(sent).toEqual(['evalsha']);
      sent.length = 0;
      expect((await post(base, WHO, {}, from(ip))).status).toBe(200);
      expect(sent).toEqual(['evalsha']);
    } finally {
      redis.disconnect();
    }
  });
});

describe("the gateway's Redis client", () => {
  /** Socket writes while 10 requests of one event-loop turn count, each at its own address. */
  async function writesForTenRequests(redis: Redis): Promise<number> {
    const limits = { redis, logger: pino({ level: 'silent' }), keyPrefix: `pipe-${randomUUID()}:` };
    const rule = { ip: 100, windowSeconds: 60 };
    // Connected, and the counting script loaded, before the writes are counted.
    await countAndRead(limits, [ipCounter({ ...limits, name: 'warm' }, rule, privateIp())]);
    let writes = 0;
    const stream = redis.stream;
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((...args: unknown[]) => {
      writes += 1;
      return write(...args);
    }) as typeof stream.write;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        countAndRead(limits, [ipCounter({ ...limits, name: 'graphql' }, rule, privateIp())]),
      ),
    );
    stream.write = write as typeof stream.write;
    // Each request got its own count back, whatever the writes carried.
    expect(answers.map((answer) => answer.wait)).toEqual(Array(10).fill(null));
    return writes;
  }

  it('sends the counts of the requests one turn of the event loop handles in one write', async () => {
    const shipped = createGatewayRedis(stack.redisUrl, pino({ level: 'silent' }));
    const plain = createRedis(stack.redisUrl, pino({ level: 'silent' }));
    try {
      expect(await writesForTenRequests(shipped)).toBe(1);
      // The same requests on a client without auto-pipelining: a write each (docs/adr/0106).
      expect(await writesForTenRequests(plain)).toBe(10);
    } finally {
      shipped.disconnect();
      plain.disconnect();
    }
  });
});

describe('sign-in rate limits per IPv6 /64', () => {
  let platform: TestPlatform;
  let base: string;

  beforeAll(async () => {
    platform = await startPlatform();
    base = await platform.gateway(); // default limits: 20 login-link requests per IP
  });
  afterAll(() => platform.stop());

  it('counts every address of a /64 as one client', async () => {
    const network = privateNetwork64();
    const requestLink = (address: string) =>
      post(base, REQUEST_LINK, { input: { email: uniqueEmail(), originUrl: '/' } }, from(address));
    for (let i = 1; i <= 20; i += 1) {
      expect((await requestLink(`${network}::${i.toString(16)}`)).status).toBe(200);
    }
    const refused = await requestLink(`${network}:1:2:3:4`);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.identifier).toBe('too_many_requests');
  });
});
