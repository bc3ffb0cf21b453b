import { internalApiEnv, loadEnv, subgraphEnv } from '@challenge/kit';
import { z } from 'zod';
import { DEFAULT_RULES, type ChallengeOptions } from './config.ts';

const cents = z.coerce.number().int().positive();

/** The one place challenge reads its environment. */
export const envSchema = subgraphEnv.extend({
  ...internalApiEnv.shape,
  /** Wallet's base URL for internal calls (the escrow hold), not through the gateway. */
  WALLET_INTERNAL_URL: z.url(),
  CHALLENGE_REWARD_MIN_CENTS: cents.default(DEFAULT_RULES.rewardMinCents),
  CHALLENGE_REWARD_MAX_CENTS: cents.default(DEFAULT_RULES.rewardMaxCents),
  JUDGING_WINDOW_DAYS: z.coerce
    .number()
    .int()
    .positive()
    .default(DEFAULT_RULES.judgingWindowMs / 86_400_000),
  /** How often the scheduler looks for expired challenges and elapsed judging windows. */
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
  /** The site's origin, for a challenge's public link (shareChallengeLink). */
  PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }),
  /** Invitations by e-mail one user may send per hour (shareChallengeLink). */
  SHARE_EMAILS_PER_HOUR: z.coerce
    .number()
    .int()
    .positive()
    .default(DEFAULT_RULES.shareEmailsPerHour),
  /** Visibility changes of one challenge per clock hour (updateChallenge). */
  VISIBILITY_EDITS_PER_HOUR: z.coerce
    .number()
    .int()
    .positive()
    .default(DEFAULT_RULES.visibilityEditsPerHour),
});
export type ChallengeEnv = z.output<typeof envSchema>;

export const readEnv = (): ChallengeEnv => loadEnv(envSchema, process.env);

export function challengeOptions(env: ChallengeEnv): ChallengeOptions {
  if (env.CHALLENGE_REWARD_MIN_CENTS > env.CHALLENGE_REWARD_MAX_CENTS) {
    throw new Error('CHALLENGE_REWARD_MIN_CENTS is above CHALLENGE_REWARD_MAX_CENTS');
  }
  return {
    wallet: { internalUrl: env.WALLET_INTERNAL_URL, internalApiToken: env.INTERNAL_API_TOKEN },
    internalApiToken: env.INTERNAL_API_TOKEN,
    rules: {
      rewardMinCents: env.CHALLENGE_REWARD_MIN_CENTS,
      rewardMaxCents: env.CHALLENGE_REWARD_MAX_CENTS,
      judgingWindowMs: env.JUDGING_WINDOW_DAYS * 86_400_000,
      shareEmailsPerHour: env.SHARE_EMAILS_PER_HOUR,
      visibilityEditsPerHour: env.VISIBILITY_EDITS_PER_HOUR,
    },
    publicOrigin: new URL(env.PUBLIC_ORIGIN).origin,
    schedulerIntervalMs: env.SCHEDULER_INTERVAL_MS,
  };
}
