import { createHash } from 'node:crypto';
import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { ERROR_CATALOGUE, type Logger, type Redis } from '@challenge/kit';
import type { Request, RequestHandler } from 'express';
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
 * Fixed windows in Redis: each key counts attempts and expires with its window. Returns, per
 * key, the count after this attempt and the seconds until the window resets.
 */
const COUNT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  local ttl = redis.call('TTL', key)
  if ttl < 0 then
    redis.call('EXPIRE', key, ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  out[#out + 1] = count
  out[#out + 1] = ttl
end
return out`;

/** A limit that hangs (Redis unreachable) must not hold sign-ins up longer than this. */
const REDIS_TIMEOUT_MS = 1_000;

export interface Counter {
  key: string;
  limit: number;
}

interface RedisCounting {
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

/**
 * Counts one attempt on each counter; resolves the seconds to wait when any is over its limit,
 * else null. Redis trouble is logged and lets the attempt through (fail open).
 */
async function count(
  options: RedisCounting,
  counters: Counter[],
  windowSeconds: number,
): Promise<number | null> {
  try {
    const keys = counters.map((counter) => counter.key);
    const result = (await withTimeout(
      options.redis.eval(COUNT_SCRIPT, keys.length, ...keys, windowSeconds),
    )) as number[];
    const waits = counters.flatMap((counter, i) =>
      Number(result[2 * i]) > counter.limit ? [Number(result[2 * i + 1])] : [],
    );
    return waits.length ? Math.max(...waits) : null;
  } catch (error) {
    options.logger.warn({ err: error }, 'rate limit check failed; letting the request through');
    return null;
  }
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
              });
            }
            const account = accountOf(argumentValues(field, request.variables));
            if (rule.account !== null && account) {
              counters.push({ key: `${base}:account:${digest(account)}`, limit: rule.account });
            }
            if (!counters.length) continue;
            const wait = await count(options, counters, rule.windowSeconds);
            if (wait !== null) throw tooManyRequests(wait);
          }
        },
      };
    },
  };
}

/**
 * Every request to the API per client IP (IPv6 per /64), before it is parsed: 429
 * `too_many_requests` with Retry-After over the limit; fails open like the sign-in limits.
 */
export function ipRateLimit(options: IpRateLimitOptions): RequestHandler {
  return (req, res, next) => {
    const key = `${options.keyPrefix}ratelimit:${options.name}:ip:${rateLimitSubject(req.ip ?? 'unknown')}`;
    count(options, [{ key, limit: options.rule.ip }], options.rule.windowSeconds).then((wait) => {
      if (wait === null) return next();
      res.set('retry-after', String(Math.max(1, wait)));
      sendError(res, 429, 'too_many_requests', 'TOO_MANY_REQUESTS');
    }, next);
  };
}

export interface ClientRateLimitOptions extends RedisCounting {
  /** What is counted: one bucket per name and user, or per name and address. */
  name: string;
  /** Anonymous requests, per address. */
  anonymous: IpRateRule;
  /** Signed-in requests, per user, wherever they come from. */
  signedIn: UserRateRule;
}

/**
 * Every request per client, after `authenticate` (docs/adr/0082): a signed-in user's requests
 * count per user, so people sharing an address (a household, an office, a carrier's NAT) are not
 * throttled together; anonymous ones count per address (IPv6 per /64). Over the limit: 429
 * `too_many_requests` with Retry-After. Fails open like the other limits.
 */
export function clientRateLimit(options: ClientRateLimitOptions): RequestHandler {
  return (req, res, next) => {
    const user = (res.locals.auth as Authentication | undefined)?.user;
    const base = `${options.keyPrefix}ratelimit:${options.name}`;
    const [key, limit, windowSeconds] = user
      ? [`${base}:user:${user.id}`, options.signedIn.user, options.signedIn.windowSeconds]
      : [
          `${base}:ip:${rateLimitSubject(req.ip ?? 'unknown')}`,
          options.anonymous.ip,
          options.anonymous.windowSeconds,
        ];
    count(options, [{ key, limit }], windowSeconds).then((wait) => {
      if (wait === null) return next();
      res.set('retry-after', String(Math.max(1, wait)));
      if (!req.complete) res.set('connection', 'close');
      sendError(res, 429, 'too_many_requests', 'TOO_MANY_REQUESTS');
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
    const key = `${options.keyPrefix}ratelimit:${options.name}:user:${user.id}`;
    count(options, [{ key, limit: options.rule.user }], options.rule.windowSeconds).then((wait) => {
      if (wait === null) return next();
      res.set('retry-after', String(Math.max(1, wait)));
      if (!req.complete) res.set('connection', 'close');
      sendError(res, 429, 'too_many_requests', 'TOO_MANY_REQUESTS');
      options.discardBody?.(req);
    }, next);
  };
}
