import { EnvError, parseEnv } from '@challenge/kit';
import { describe, expect, it } from 'vitest';
import { envSchema, graphqlLimitsFromEnv, rateLimitsFromEnv } from '../src/env.ts';
import { DEFAULT_GRAPHQL_LIMITS } from '../src/graphql-limits.ts';
import {
  DEFAULT_GRAPHQL_RATE_LIMIT,
  DEFAULT_RATE_LIMITS,
  DEFAULT_UPLOAD_RATE_LIMIT,
} from '../src/rate-limit-rules.ts';

const REQUIRED = {
  PORT: '4700',
  REDIS_URL: 'redis://127.0.0.1:6379',
  JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\\nAAAA\\n-----END PUBLIC KEY-----',
  IDENTITY_URL: 'http://127.0.0.1:4701/graphql',
  CHALLENGE_URL: 'http://127.0.0.1:4702/graphql',
  WALLET_URL: 'http://127.0.0.1:4703/graphql',
  MEDIA_URL: 'http://127.0.0.1:4704/graphql',
  MODERATION_URL: 'http://127.0.0.1:4705/graphql',
  NOTIFICATION_URL: 'http://127.0.0.1:4706/graphql',
  PUBLIC_ORIGIN: 'https://challenge.example',
  GATEWAY_SECRET: 'gateway-secret-for-the-env-test-0123456789',
};

describe('gateway environment', () => {
  it('defaults to an enabled geofence, no CORS origins and the documented rate limits', () => {
    const env = parseEnv(envSchema, REQUIRED);
    expect(env).toMatchObject({
      GEOFENCE_ENABLED: true,
      GEOFENCE_ALLOW_PRIVATE: false,
      CORS_ORIGINS: [],
    });
    expect(env.METRICS_TOKEN).toBeUndefined();
    expect(rateLimitsFromEnv(env)).toEqual(DEFAULT_RATE_LIMITS);
    expect(env.RATE_LIMIT_GRAPHQL).toEqual(DEFAULT_GRAPHQL_RATE_LIMIT);
    expect(graphqlLimitsFromEnv(env)).toEqual(DEFAULT_GRAPHQL_LIMITS);
    expect(DEFAULT_GRAPHQL_LIMITS).toEqual({
      depth: 12,
      aliases: 10,
      directives: 20,
      tokens: 1000,
      cost: 2000,
    });
    expect(DEFAULT_RATE_LIMITS.requestLoginLink).toEqual({
      account: 5,
      ip: 20,
      windowSeconds: 900,
    });
  });

  it('reads switches, origins and rate rules', () => {
    const env = parseEnv(envSchema, {
      ...REQUIRED,
      GEOFENCE_ENABLED: 'false',
      GEOFENCE_ALLOW_PRIVATE: 'true',
      CORS_ORIGINS: 'https://staff.example/, https://tools.example',
      RATE_LIMIT_LOGIN: '2/-/30s',
      RATE_LIMIT_VERIFY_USER: '-/4/2h',
    });
    expect(env.GEOFENCE_ENABLED).toBe(false);
    expect(env.GEOFENCE_ALLOW_PRIVATE).toBe(true);
    expect(env.CORS_ORIGINS).toEqual(['https://staff.example', 'https://tools.example']);
    const limits = rateLimitsFromEnv(env);
    expect(limits.login).toEqual({ account: 2, ip: null, windowSeconds: 30 });
    expect(limits.verifyUser).toEqual({ account: null, ip: 4, windowSeconds: 7200 });
    expect(limits.requestLoginLink).toEqual(DEFAULT_RATE_LIMITS.requestLoginLink);
  });

  it('reads the general rate limit and the query limits', () => {
    const env = parseEnv(envSchema, {
      ...REQUIRED,
      RATE_LIMIT_GRAPHQL: '120/30s',
      GRAPHQL_MAX_DEPTH: '8',
      GRAPHQL_MAX_ALIASES: '4',
      GRAPHQL_MAX_DIRECTIVES: '5',
      GRAPHQL_MAX_TOKENS: '500',
      GRAPHQL_MAX_COST: '900',
    });
    expect(env.RATE_LIMIT_GRAPHQL).toEqual({ ip: 120, windowSeconds: 30 });
    expect(graphqlLimitsFromEnv(env)).toEqual({
      depth: 8,
      aliases: 4,
      directives: 5,
      tokens: 500,
      cost: 900,
    });
  });

  it('reads the per-user upload limit: 20 an hour unless <per user>/<window> says otherwise', () => {
    expect(parseEnv(envSchema, REQUIRED).RATE_LIMIT_UPLOADS).toEqual(DEFAULT_UPLOAD_RATE_LIMIT);
    expect(DEFAULT_UPLOAD_RATE_LIMIT).toEqual({ user: 20, windowSeconds: 3600 });
    const env = parseEnv(envSchema, { ...REQUIRED, RATE_LIMIT_UPLOADS: '5/10m' });
    expect(env.RATE_LIMIT_UPLOADS).toEqual({ user: 5, windowSeconds: 600 });
    for (const value of ['0/1h', '-/1h', '20']) {
      expect(() => parseEnv(envSchema, { ...REQUIRED, RATE_LIMIT_UPLOADS: value })).toThrow(
        EnvError,
      );
    }
  });

  it("reads the counters' key prefix: gateway: unless set, and refuses one that is not a plain name", () => {
    expect(parseEnv(envSchema, REQUIRED).RATE_LIMIT_KEY_PREFIX).toBe('gateway:');
    expect(
      parseEnv(envSchema, { ...REQUIRED, RATE_LIMIT_KEY_PREFIX: 'e2e-1a2b.gateway:' })
        .RATE_LIMIT_KEY_PREFIX,
    ).toBe('e2e-1a2b.gateway:');
    for (const value of ['a b', 'x'.repeat(65), 'k*']) {
      expect(() => parseEnv(envSchema, { ...REQUIRED, RATE_LIMIT_KEY_PREFIX: value })).toThrow(
        EnvError,
      );
    }
  });

  it('refuses a general rate limit or query limit that is not a positive number', () => {
    for (const [name, value] of [
      ['RATE_LIMIT_GRAPHQL', '-/1m'],
      ['RATE_LIMIT_GRAPHQL', '0/1m'],
      ['RATE_LIMIT_GRAPHQL', '600'],
      ['GRAPHQL_MAX_DEPTH', '0'],
      ['GRAPHQL_MAX_COST', 'lots'],
      ['GRAPHQL_MAX_TOKENS', '1.5'],
    ] as const) {
      expect(() => parseEnv(envSchema, { ...REQUIRED, [name]: value }), `${name}=${value}`).toThrow(
        EnvError,
      );
    }
  });

  it('names each malformed variable', () => {
    const problems = (() => {
      try {
        parseEnv(envSchema, {
          ...REQUIRED,
          RATE_LIMIT_LOGIN: '10 per minute',
          GEOFENCE_ENABLED: 'maybe',
          METRICS_TOKEN: 'short',
          CORS_ORIGINS: 'not a url',
          GATEWAY_SECRET: 'shorter-than-32-characters',
        });
      } catch (error) {
        if (error instanceof EnvError) return error.problems;
        throw error;
      }
      return [];
    })();
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'Invalid environment variable GATEWAY_SECRET',
      'Invalid environment variable GEOFENCE_ENABLED',
      'Invalid environment variable CORS_ORIGINS.0',
      'Invalid environment variable METRICS_TOKEN',
      'Invalid environment variable RATE_LIMIT_LOGIN',
    ]);
    expect(problems[0]).toContain('must be at least 32 characters');
    expect(problems[4]).toContain('expected <per account>/<per IP>/<window>');
  });
});
