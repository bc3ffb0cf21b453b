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

/**
 * The payment provider's webhook, per client IP: generous, because all of Mollie's webhooks and
 * their retries (up to 10 per payment over a day) come from a few addresses; a flood from one
 * address gets 429, which Mollie would retry later.
 */
export const DEFAULT_WEBHOOK_RATE_LIMIT: IpRateRule = { ip: 600, windowSeconds: 60 };

export const isLimitedOperation = (name: string): name is LimitedOperation =>
  (LIMITED_OPERATIONS as readonly string[]).includes(name);

/** Requests allowed per fixed window from one client (an IPv4 address, an IPv6 /64). */
export interface IpRateRule {
  ip: number;
  windowSeconds: number;
}

/**
 * Every anonymous `/graphql` request counts per address. A page of the web sends a handful of
 * operations, so 600 a minute leaves room for many visitors behind one address while stopping
 * a flood. Signed-in traffic counts per user instead (DEFAULT_GRAPHQL_USER_RATE_LIMIT).
 */
export const DEFAULT_GRAPHQL_RATE_LIMIT: IpRateRule = { ip: 600, windowSeconds: 60 };

/** Requests allowed per fixed window from one signed-in user. */
export interface UserRateRule {
  user: number;
  windowSeconds: number;
}

/**
 * Every signed-in `/graphql` request counts per user (docs/adr/0082): a household, an office or
 * a mobile carrier behind one address is not throttled together. One person's pages and the
 * top-up poll stay far below 600 a minute.
 */
export const DEFAULT_GRAPHQL_USER_RATE_LIMIT: UserRateRule = { user: 600, windowSeconds: 60 };

/**
 * Every request from one address, signed in or not, counted before its token is checked or its
 * body read: a flood (of forged tokens too) stops here. Ten times one user's budget leaves a
 * large office or a carrier's NAT room.
 */
export const DEFAULT_GRAPHQL_ADDRESS_CEILING: IpRateRule = { ip: 6_000, windowSeconds: 60 };

/**
 * New uploads per user (docs/adr/0052): GraphQL multipart uploads and tus creations together.
 * Resuming an upload (HEAD, PATCH) does not count. A performer uploads one proof per challenge
 * and may retry a few times; 20 an hour stops one account from filling the store or the
 * processing queue.
 */
export const DEFAULT_UPLOAD_RATE_LIMIT: UserRateRule = { user: 20, windowSeconds: 60 * 60 };
