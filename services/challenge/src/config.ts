/** Challenge's settings beyond the database, built from the environment by env.ts (or a test). */
export interface ChallengeOptions {
  /**
   * Wallet's internal API (the escrow hold) and the shared secret of internal calls. Only tests
   * that never create a challenge leave it out; creating one then fails with generic_error.
   */
  wallet?: { internalUrl: string; internalApiToken: string };
  /**
   * The shared secret of the internal API challenge serves (media registers completed proof
   * uploads, docs/adr/0071); the route is not served without it (tests that never upload).
   */
  internalApiToken?: string;
  rules?: Partial<ChallengeRules>;
  /** How often the scheduler (expiry, judging window) runs; not started when absent (tests). */
  schedulerIntervalMs?: number;
  /**
   * The clock of the challenge's timers: the scheduler (expiry, judging window, stale drafts),
   * the times the consumers record (a review starts, a challenge goes offline or comes back) and
   * a proof upload's registration against the expiration date; the wall clock by default. Tests
   * move it forward to let weeks pass in a moment; never set from the environment.
   */
  schedulerClock?: () => Date;
  /** The site's origin for a challenge's public link; http://127.0.0.1:4700 when absent (tests). */
  publicOrigin?: string;
}

/** The configurable business rules; defaults in the README. */
export interface ChallengeRules {
  /** Bounds of one challenge's reward, integer euro cents, both inclusive. */
  rewardMinCents: number;
  rewardMaxCents: number;
  /** How long the owner may take to judge a video before silence counts as approval. */
  judgingWindowMs: number;
  /** Invitations by e-mail one user may send per hour (shareChallengeLink). */
  shareEmailsPerHour: number;
  /** Visibility changes of one challenge per hour: each makes media move its objects (ADR 73). */
  visibilityEditsPerHour: number;
}

export const DEFAULT_RULES: ChallengeRules = {
  rewardMinCents: 100,
  rewardMaxCents: 100_000,
  judgingWindowMs: 7 * 24 * 60 * 60 * 1000,
  shareEmailsPerHour: 20,
  visibilityEditsPerHour: 10,
};
