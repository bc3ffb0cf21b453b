import { baseEnv, jwtVerifyEnv, loadEnv, redisEnv } from '@challenge/kit';
import { z } from 'zod';
import { DEFAULT_RATE_LIMITS, type RateLimits, type RateRule } from './rate-limit-rules.ts';

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
  /** The built web app (web/dist) served at /; unset serves the API only. */
  WEB_DIST_DIR: z.string().min(1).optional(),
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
  RATE_LIMIT_REQUEST_LOGIN_LINK: rateRule(DEFAULT_RATE_LIMITS.requestLoginLink),
  RATE_LIMIT_VERIFY_LOGIN_CODE: rateRule(DEFAULT_RATE_LIMITS.verifyLoginCode),
  RATE_LIMIT_VERIFY_LOGIN_LINK: rateRule(DEFAULT_RATE_LIMITS.verifyLoginLink),
  RATE_LIMIT_LOGIN: rateRule(DEFAULT_RATE_LIMITS.login),
  RATE_LIMIT_REQUEST_FORGOT_PASSWORD_LINK: rateRule(DEFAULT_RATE_LIMITS.requestForgotPasswordLink),
  RATE_LIMIT_RESET_FORGOTTEN_PASSWORD: rateRule(DEFAULT_RATE_LIMITS.resetForgottenPassword),
  RATE_LIMIT_VERIFY_USER: rateRule(DEFAULT_RATE_LIMITS.verifyUser),
  RATE_LIMIT_REAUTHENTICATE: rateRule(DEFAULT_RATE_LIMITS.reauthenticate),
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
