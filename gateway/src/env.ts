import { baseEnv, jwtVerifyEnv, loadEnv, redisEnv } from '@challenge/kit';
import { z } from 'zod';

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
});
export type GatewayEnv = z.output<typeof envSchema>;

export const readEnv = (): GatewayEnv => loadEnv(envSchema, process.env);
