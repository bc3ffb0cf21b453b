/** Moderation's settings beyond the database, built from the environment by env.ts (or a test). */
export interface ModerationOptions {
  /** How long a referee has to decide a case (one week by default). */
  refereeWindowMs?: number;
  /** How often overdue referee cases are escalated; not started when absent (tests). */
  schedulerIntervalMs?: number;
  /** The escalation's clock; the wall clock unless a test moves it. Never from the environment. */
  schedulerClock?: () => Date;
}
