import { durationMs, loadEnv, subgraphEnv } from '@challenge/kit';
import { z } from 'zod';
import type { ModerationOptions } from './config.ts';
import { REFEREE_WINDOW_MS } from './domain/referee.ts';

/** The one place moderation reads its environment. */
export const envSchema = subgraphEnv.extend({
  /** Days a referee has to decide a disputed challenge before it is escalated to admins. */
  REFEREE_WINDOW_DAYS: z.coerce
    .number()
    .int()
    .positive()
    .default(REFEREE_WINDOW_MS / 86_400_000),
  /** How often the scheduler looks for referee cases past their deadline. */
  SCHEDULER_INTERVAL_MS: durationMs().default(60_000),
});
export type ModerationEnv = z.output<typeof envSchema>;

export const readEnv = (): ModerationEnv => loadEnv(envSchema, process.env);

export function moderationOptions(env: ModerationEnv): ModerationOptions {
  return {
    refereeWindowMs: env.REFEREE_WINDOW_DAYS * 86_400_000,
    schedulerIntervalMs: env.SCHEDULER_INTERVAL_MS,
  };
}
