import { internalApiEnv, jwtSignEnv, loadEnv, subgraphEnv } from '@challenge/kit';
import { z } from 'zod';

/** The one place identity reads its environment. */
export const envSchema = subgraphEnv.extend({
  ...jwtSignEnv.shape,
  /** Checked on media's internal profile update (docs/adr/0049). */
  ...internalApiEnv.shape,
  /** The site's origin, for the links in log-in and password-reset e-mails. */
  PUBLIC_ORIGIN: z.url(),
  /** Key of the HMAC under which one-time secrets (codes, links, reset tokens) are stored. */
  AUTH_HASH_SECRET: z.string().min(32, 'must be at least 32 characters'),
});
export type IdentityEnv = z.output<typeof envSchema>;

export const readEnv = (): IdentityEnv => loadEnv(envSchema, process.env);
