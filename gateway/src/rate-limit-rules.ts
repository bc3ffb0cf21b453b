/** The sign-in operations the gateway rate-limits, by their mutation's root field name. */
export const LIMITED_OPERATIONS = [
  'requestLoginLink',
  'verifyLoginCode',
  'verifyLoginLink',
  'login',
  'requestForgotPasswordLink',
  'resetForgottenPassword',
  'verifyUser',
  'reauthenticate',
] as const;
export type LimitedOperation = (typeof LIMITED_OPERATIONS)[number];

/** Attempts allowed per fixed window, per account (e-mail or username) and per client IP. */
export interface RateRule {
  account: number | null;
  ip: number | null;
  windowSeconds: number;
}
export type RateLimits = Record<LimitedOperation, RateRule>;

const MINUTES_15 = 15 * 60;
const HOUR = 60 * 60;

export const DEFAULT_RATE_LIMITS: RateLimits = {
  requestLoginLink: { account: 5, ip: 20, windowSeconds: MINUTES_15 },
  verifyLoginCode: { account: 10, ip: 30, windowSeconds: MINUTES_15 },
  verifyLoginLink: { account: 10, ip: 30, windowSeconds: MINUTES_15 },
  login: { account: 10, ip: 30, windowSeconds: MINUTES_15 },
  requestForgotPasswordLink: { account: 3, ip: 10, windowSeconds: HOUR },
  resetForgottenPassword: { account: null, ip: 10, windowSeconds: HOUR },
  // Per account (the e-mail) too: identity also locks an address out after ten wrong codes.
  verifyUser: { account: 5, ip: 10, windowSeconds: HOUR },
  // Password or code of a logged-in account (identity counts wrong ones per address as well).
  reauthenticate: { account: null, ip: 10, windowSeconds: MINUTES_15 },
};

export const isLimitedOperation = (name: string): name is LimitedOperation =>
  (LIMITED_OPERATIONS as readonly string[]).includes(name);
