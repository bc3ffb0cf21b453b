import { baseEnv, gatewaySecretEnv, jwtVerifyEnv, loadEnv, redisEnv } from '@challenge/kit';
import { z } from 'zod';
import { DEFAULT_GRAPHQL_LIMITS, type GraphqlLimits } from './graphql-limits.ts';
import {
  DEFAULT_GRAPHQL_ADDRESS_CEILING,
  DEFAULT_GRAPHQL_RATE_LIMIT,
  DEFAULT_GRAPHQL_USER_RATE_LIMIT,
  DEFAULT_RATE_LIMITS,
  type IpRateRule,
  DEFAULT_WEBHOOK_RATE_LIMIT,
  DEFAULT_UPLOAD_RATE_LIMIT,
  type RateLimits,
  type RateRule,
  type UserRateRule,
} from './rate-limit-rules.ts';

const UNIT_SECONDS = { s: 1, m: 60, h: 3600 } as const;

/** A rate rule as `<per account>/<per IP>/<window>`, e.g. `5/20/15m`; `-` means no limit. */
const rateRule = (fallback: RateRule) =>
  z
    .string()
    .regex(
      /^(\d+|-)\/(\d+|-)\/\d+[smh]$/,
      'expected <per account>/<per IP>/<window>, e.g. 5/20/15m',
    )
    .transform((value): RateRule => {
      const [account, ip, window] = value.split('/') as [string, string, string];
      const unit = window.slice(-1) as keyof typeof UNIT_SECONDS;
      return {
        account: account === '-' ? null : Number(account),
        ip: ip === '-' ? null : Number(ip),
        windowSeconds: Number(window.slice(0, -1)) * UNIT_SECONDS[unit],
      };
    })
    .optional()
    .transform((rule) => rule ?? fallback);

/** A per-IP rule as `<per IP>/<window>`, e.g. `600/1m`. */
const ipRateRule = (fallback: IpRateRule) =>
  z
    .string()
    .regex(/^[1-9]\d*\/[1-9]\d*[smh]$/, 'expected <per IP>/<window>, e.g. 600/1m')
    .transform((value): IpRateRule => {
      const [ip, window] = value.split('/') as [string, string];
      const unit = window.slice(-1) as keyof typeof UNIT_SECONDS;
      return { ip: Number(ip), windowSeconds: Number(window.slice(0, -1)) * UNIT_SECONDS[unit] };
    })
    .optional()
    .transform((rule) => rule ?? fallback);

/** A per-user rule as `<per user>/<window>`, e.g. `20/1h`. */
const userRateRule = (fallback: UserRateRule) =>
  z
    .string()
    .regex(/^[1-9]\d*\/[1-9]\d*[smh]$/, 'expected <per user>/<window>, e.g. 20/1h')
    .transform((value): UserRateRule => {
      const [user, window] = value.split('/') as [string, string];
      const unit = window.slice(-1) as keyof typeof UNIT_SECONDS;
      return {
        user: Number(user),
        windowSeconds: Number(window.slice(0, -1)) * UNIT_SECONDS[unit],
      };
    })
    .optional()
    .transform((rule) => rule ?? fallback);

/** A positive whole number with a default. */
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const originList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url().transform((url) => new URL(url).origin)));

/** The one place the gateway reads its environment. */
export const envSchema = baseEnv.extend({
  ...redisEnv.shape,
  ...jwtVerifyEnv.shape,
  IDENTITY_URL: z.url(),
  CHALLENGE_URL: z.url(),
  WALLET_URL: z.url(),
  MEDIA_URL: z.url(),
  MODERATION_URL: z.url(),
  NOTIFICATION_URL: z.url(),
  /** The credential the gateway sends every subgraph (docs/adr/0069); the subgraphs check it. */
  GATEWAY_SECRET: gatewaySecretEnv.shape.GATEWAY_SECRET,
  /** The built web app (web/dist) served at /; unset serves the API only. */
  WEB_DIST_DIR: z.string().min(1).optional(),
  /**
   * The origin browsers load media's signed videos and thumbnails from (media's
   * S3_PUBLIC_ENDPOINT, else S3_ENDPOINT): pages tell browsers to connect to it early. Optional.
   */
  MEDIA_ORIGIN: z
    .url()
    .transform((url) => new URL(url).origin)
    .optional(),
  /** The site's own origin, e.g. https://challenges.example; checked against Origin headers. */
  PUBLIC_ORIGIN: z.url(),
  /** Express trust-proxy setting: hop count or a list of trusted proxy addresses. */
  TRUST_PROXY: z.string().default('loopback'),
  /** Off only for staff tooling behind a VPN: every address passes. */
  GEOFENCE_ENABLED: z.stringbool().default(true),
  /** Lets loopback and private addresses pass in production (always allowed in development/test). */
  GEOFENCE_ALLOW_PRIVATE: z.stringbool().default(false),
  /** Extra origins allowed to call the API cross-origin (bearer-token clients); none by default. */
  CORS_ORIGINS: originList.default([]),
  /** Bearer token that unlocks /metrics for public addresses; private addresses need none. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Anonymous /graphql (and tus) requests per client IP (IPv6 per /64). */
  RATE_LIMIT_GRAPHQL: ipRateRule(DEFAULT_GRAPHQL_RATE_LIMIT),
  /** `<per user>/<window>`: signed-in /graphql (and tus) requests per user (ADR 82). */
  RATE_LIMIT_GRAPHQL_USER: userRateRule(DEFAULT_GRAPHQL_USER_RATE_LIMIT),
  /** `<per IP>/<window>`: every API request per client IP, before its token is checked. */
  RATE_LIMIT_GRAPHQL_ADDRESS_CEILING: ipRateRule(DEFAULT_GRAPHQL_ADDRESS_CEILING),
  /** Bounds on one GraphQL document (graphql-limits.ts). */
  GRAPHQL_MAX_DEPTH: positiveInt(DEFAULT_GRAPHQL_LIMITS.depth),
  GRAPHQL_MAX_ALIASES: positiveInt(DEFAULT_GRAPHQL_LIMITS.aliases),
  GRAPHQL_MAX_DIRECTIVES: positiveInt(DEFAULT_GRAPHQL_LIMITS.directives),
  GRAPHQL_MAX_TOKENS: positiveInt(DEFAULT_GRAPHQL_LIMITS.tokens),
  GRAPHQL_MAX_COST: positiveInt(DEFAULT_GRAPHQL_LIMITS.cost),
  RATE_LIMIT_REQUEST_LOGIN_LINK: rateRule(DEFAULT_RATE_LIMITS.requestLoginLink),
  RATE_LIMIT_VERIFY_LOGIN_CODE: rateRule(DEFAULT_RATE_LIMITS.verifyLoginCode),
  RATE_LIMIT_VERIFY_LOGIN_LINK: rateRule(DEFAULT_RATE_LIMITS.verifyLoginLink),
  RATE_LIMIT_LOGIN: rateRule(DEFAULT_RATE_LIMITS.login),
  RATE_LIMIT_REQUEST_FORGOT_PASSWORD_LINK: rateRule(DEFAULT_RATE_LIMITS.requestForgotPasswordLink),
  RATE_LIMIT_RESET_FORGOTTEN_PASSWORD: rateRule(DEFAULT_RATE_LIMITS.resetForgottenPassword),
  RATE_LIMIT_VERIFY_USER: rateRule(DEFAULT_RATE_LIMITS.verifyUser),
  /** `<per IP>/<window>`: the payment provider's webhook. */
  RATE_LIMIT_PAYMENT_WEBHOOK: ipRateRule(DEFAULT_WEBHOOK_RATE_LIMIT),
  RATE_LIMIT_REAUTHENTICATE: rateRule(DEFAULT_RATE_LIMITS.reauthenticate),
  /** `<per user>/<window>`: new uploads (multipart and tus creations) per signed-in user. */
  RATE_LIMIT_UPLOADS: userRateRule(DEFAULT_UPLOAD_RATE_LIMIT),
  /**
   * Prefix of the limits' counters in Redis: gateways sharing one Redis count together under the
   * same prefix, and apart (a test's platform beside `npm start`'s) under different ones.
   */
  RATE_LIMIT_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, 'letters, digits and _ : . - only')
    .default('gateway:'),
});
export type GatewayEnv = z.output<typeof envSchema>;

export const readEnv = (): GatewayEnv => loadEnv(envSchema, process.env);

export function rateLimitsFromEnv(env: GatewayEnv): RateLimits {
  return {
    requestLoginLink: env.RATE_LIMIT_REQUEST_LOGIN_LINK,
    verifyLoginCode: env.RATE_LIMIT_VERIFY_LOGIN_CODE,
    verifyLoginLink: env.RATE_LIMIT_VERIFY_LOGIN_LINK,
    login: env.RATE_LIMIT_LOGIN,
    requestForgotPasswordLink: env.RATE_LIMIT_REQUEST_FORGOT_PASSWORD_LINK,
    resetForgottenPassword: env.RATE_LIMIT_RESET_FORGOTTEN_PASSWORD,
    verifyUser: env.RATE_LIMIT_VERIFY_USER,
    reauthenticate: env.RATE_LIMIT_REAUTHENTICATE,
  };
}

export function graphqlLimitsFromEnv(env: GatewayEnv): GraphqlLimits {
  return {
    depth: env.GRAPHQL_MAX_DEPTH,
    aliases: env.GRAPHQL_MAX_ALIASES,
    directives: env.GRAPHQL_MAX_DIRECTIVES,
    tokens: env.GRAPHQL_MAX_TOKENS,
    cost: env.GRAPHQL_MAX_COST,
  };
}
