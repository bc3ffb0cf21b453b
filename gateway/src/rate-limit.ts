import { createHash } from 'node:crypto';
import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { ERROR_CATALOGUE, createRedis, type Logger, type Redis } from '@challenge/kit';
import type { Request, RequestHandler, Response } from 'express';
import { GraphQLError } from 'graphql';
import { rateLimitSubject } from './client-address.ts';
import type { GatewayContext } from './context.ts';
import { accountOf, argumentValues, rootFields } from './operations.ts';
import type { Authentication } from './auth.ts';
import {
  isLimitedOperation,
  type IpRateRule,
  type RateLimits,
  type UserRateRule,
} from './rate-limit-rules.ts';
import { sendError } from './respond.ts';

/**
 * Fixed windows in Redis: each of the first ARGV[1] keys counts attempts and expires with its
 * window (ARGV[1 + i] seconds for key i); the keys after them are only read (the gateway reads the
 * caller's token state in the same round trip, docs/adr/0088). Returns, per counter, the count
 * after this attempt and the seconds until its window resets, then the value of each key read.
 */
const COUNT_SCRIPT = `
local out = {}
local counters = tonumber(ARGV[1])
for i = 1, counters do
  local key = KEYS[i]
  local count = redis.call('INCR', key)
  local ttl = redis.call('TTL', key)
  if ttl < 0 then
    redis.call('EXPIRE', key, ARGV[1 + i])
    ttl = tonumber(ARGV[1 + i])
  end
  out[#out + 1] = count
  out[#out + 1] = ttl
end
for i = counters + 1, #KEYS do
  out[#out + 1] = redis.call('GET', KEYS[i])
end
return out`;
/** Sent by its hash: Redis keeps the script, the request carries 40 characters instead of it. */
const COUNT_SCRIPT_SHA = createHash('sha1').update(COUNT_SCRIPT).digest('hex');

/** A limit that hangs (Redis unreachable) must not hold sign-ins up longer than this. */
const REDIS_TIMEOUT_MS = 1_000;

export interface Counter {
  key: string;
  limit: number;
  windowSeconds: number;
}

export interface RedisCounting {
  redis: Redis;
  logger: Logger;
  /** Prefix of every key, so that tests (and shared Redis instances) stay apart. */
  keyPrefix: string;
}

export interface RateLimitOptions extends RedisCounting {
  limits: RateLimits;
}

export interface UserRateLimitOptions extends RedisCounting {
  /** What is counted: one bucket per name and user. */
  name: string;
  rule: UserRateRule;
  /** Which requests count (the others pass uncounted). */
  counts: (req: Request) => boolean;
  /** What to do with the unread body of a refused request (see uploads.ts). */
  discardBody?: (req: Request) => void;
}

export interface IpRateLimitOptions extends RedisCounting {
  /** What is counted: one bucket per name and client. */
  name: string;
  rule: IpRateRule;
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

function tooManyRequests(retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(ERROR_CATALOGUE.too_many_requests, {
    extensions: {
      code: 'TOO_MANY_REQUESTS',
      identifier: 'too_many_requests',
      http: {
        status: 429,
        headers: new HeaderMap([['retry-after', String(Math.max(1, retryAfterSeconds))]]),
      },
    },
  });
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('rate limit check timed out')), REDIS_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function runCountScript(redis: Redis, keys: string[], args: (string | number)[]) {
  return redis.evalsha(COUNT_SCRIPT_SHA, keys.length, ...keys, ...args).catch((error: Error) => {
    // A Redis that restarted (or was flushed) lost the script: send it whole, once.
    if (!error.message?.startsWith('NOSCRIPT')) throw error;
    return redis.eval(COUNT_SCRIPT, keys.length, ...keys, ...args);
  }) as Promise<(number | string | null)[]>;
}

/**
 * The gateway's Redis client. Every API request sends it one short script (countAndRead); with
 * auto-pipelining the scripts of the requests that one turn of the event loop handles go in one
 * write and come back in one read: at 20 connections an eighth less of the gateway's CPU per
 * request, and half of Redis's (docs/adr/0106). The gateway sends no blocking command.
 */
export function createGatewayRedis(url: string, logger: Logger): Redis {
  return createRedis(url, logger, { autoPipelining: true });
}

/**
 * Counts one attempt on each counter and reads `reads` in the same round trip. `wait` is the
 * seconds to wait when any counter is over its limit, else null. Redis trouble is logged and lets
 * the attempt through (fail open): `wait` null and `values` null (the values are unknown).
 */
export async function countAndRead(
  options: RedisCounting,
  counters: Counter[],
  reads: string[] = [],
): Promise<{ wait: number | null; values: (string | null)[] | null }> {
  try {
    const keys = [...counters.map((counter) => counter.key), ...reads];
    const windows = counters.map((counter) => counter.windowSeconds);
    const result = await withTimeout(
      runCountScript(options.redis, keys, [counters.length, ...windows]),
    );
    const waits = counters.flatMap((counter, i) =>
      Number(result[2 * i]) > counter.limit ? [Number(result[2 * i + 1])] : [],
    );
    const values = result
      .slice(2 * counters.length)
      .map((value) => (value === null ? null : String(value)));
    return { wait: waits.length ? Math.max(...waits) : null, values };
  } catch (error) {
    options.logger.warn({ err: error }, 'rate limit check failed; letting the request through');
    return { wait: null, values: null };
  }
}

/** Counts one attempt on each counter: the seconds to wait when any is over its limit, else null. */
async function count(options: RedisCounting, counters: Counter[]): Promise<number | null> {
  return (await countAndRead(options, counters)).wait;
}

/** The counter of every request a client sends to `name` (its IPv4 address, its IPv6 /64). */
export const ipCounter = (
  options: RedisCounting & { name: string },
  rule: IpRateRule,
  ip: string | undefined,
): Counter => ({
  key: `${options.keyPrefix}ratelimit:${options.name}:ip:${rateLimitSubject(ip ?? 'unknown')}`,
  limit: rule.ip,
  windowSeconds: rule.windowSeconds,
});

/** The counter of every request a signed-in user sends to `name`, from any address. */
export const userCounter = (
  options: RedisCounting & { name: string },
  rule: UserRateRule,
  userId: string,
): Counter => ({
  key: `${options.keyPrefix}ratelimit:${options.name}:user:${userId}`,
  limit: rule.user,
  windowSeconds: rule.windowSeconds,
});

/**
 * Whether a page may run its subject lookup now (page-subjects.ts). Each lookup costs the
 * subgraphs a query that no API limit counted, so a client gets `rule` of them a window, in a
 * bucket of their own; over it the page goes out without the lookup (200, no poster), never
 * refused. Redis trouble lets it through, as every limit here does.
 */
export function pageLookupBudget(options: RedisCounting, rule: IpRateRule) {
  return async (req: Request): Promise<boolean> =>
    (await countAndRead(options, [ipCounter({ ...options, name: 'page-lookup' }, rule, req.ip)]))
      .wait === null;
}

/** 429 too_many_requests with Retry-After. */
export function sendTooManyRequests(res: Response, waitSeconds: number): void {
  res.set('retry-after', String(Math.max(1, waitSeconds)));
  sendError(res, 429, 'too_many_requests', 'TOO_MANY_REQUESTS');
}

/**
 * Limits the sign-in mutations per client IP (IPv6 per /64) and per account. Every root field counts, so
 * aliases cannot multiply attempts within one request.
 */
export function rateLimitPlugin(options: RateLimitOptions): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, request, contextValue }) {
          if (operation?.operation !== 'mutation') return;
          for (const field of rootFields(document, operation)) {
            const name = field.name.value;
            if (!isLimitedOperation(name)) continue;
            const rule = options.limits[name];
            const base = `${options.keyPrefix}ratelimit:${name}`;
            const counters: Counter[] = [];
            if (rule.ip !== null) {
              counters.push({
                key: `${base}:ip:${rateLimitSubject(contextValue.clientIp)}`,
                limit: rule.ip,
                windowSeconds: rule.windowSeconds,
              });
            }
            const account = accountOf(argumentValues(field, request.variables));
            if (rule.account !== null && account) {
              counters.push({
                key: `${base}:account:${digest(account)}`,
                limit: rule.account,
                windowSeconds: rule.windowSeconds,
              });
            }
            if (!counters.length) continue;
            const wait = await count(options, counters);
            if (wait !== null) throw tooManyRequests(wait);
          }
        },
      };
    },
  };
}

/**
 * Every request per client IP (IPv6 per /64), before it is parsed: 429 `too_many_requests` with
 * Retry-After over the limit; fails open like the sign-in limits. (The API's own paths count in
 * `authenticate`, together with the caller's token state: docs/adr/0088.)
 */
export function ipRateLimit(options: IpRateLimitOptions): RequestHandler {
  return (req, res, next) => {
    count(options, [ipCounter(options, options.rule, req.ip)]).then((wait) => {
      if (wait === null) return next();
      sendTooManyRequests(res, wait);
    }, next);
  };
}

/**
 * Per signed-in user, after `authenticate`: the requests `counts` picks (new uploads) are counted
 * per user id; over the limit, 429 `too_many_requests` with Retry-After, the body left unread.
 * Anonymous requests pass uncounted (the subgraph refuses them; the per-IP limit still holds).
 * Fails open like the other limits.
 */
export function userRateLimit(options: UserRateLimitOptions): RequestHandler {
  return (req, res, next) => {
    const user = (res.locals.auth as Authentication | undefined)?.user;
    if (!user || !options.counts(req)) return next();
    count(options, [userCounter(options, options.rule, user.id)]).then((wait) => {
      if (wait === null) return next();
      if (!req.complete) res.set('connection', 'close');
      sendTooManyRequests(res, wait);
      options.discardBody?.(req);
    }, next);
  };
}
