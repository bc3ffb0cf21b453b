import { z } from 'zod';
import { AppError } from '@challenge/kit';

/** The account rules of spec section 5; pure, so they are tested without a database. */

export const MINIMUM_AGE = 16;
export const ADULT_AGE = 18;
export const PASSWORD_MIN_LENGTH = 8;
/** Links and codes live 15 minutes; five wrong codes in a row kill a code. */
export const LOGIN_CHALLENGE_TTL_MS = 15 * 60 * 1000;
export const MAX_FAILED_CODE_ATTEMPTS = 5;
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

/**
 * Wrong codes and links per address, whatever the number of links requested: every tenth locks
 * the address out, for an hour the first time and twice as long each next time (at most a day),
 * and failures are forgotten after a week without one. Ten guesses a day of a million codes.
 */
export const ADDRESS_FAILURE_LIMIT = 10;
export const ADDRESS_LOCKOUT_MS = 60 * 60 * 1000;
export const ADDRESS_LOCKOUT_MAX_MS = 24 * 60 * 60 * 1000;
export const ADDRESS_FAILURE_MEMORY_MS = 7 * 24 * 60 * 60 * 1000;

export interface AddressFailures {
  failures: number;
  lastFailureAt: Date;
  lockedUntil: Date | null;
}

export function isLockedOut(state: AddressFailures | null, now: Date): boolean {
  return state?.lockedUntil != null && state.lockedUntil > now;
}

/** The address's failure record after one more wrong code, link or password. */
export function afterFailedAttempt(state: AddressFailures | null, now: Date): AddressFailures {
  const remembered =
    state !== null && now.getTime() - state.lastFailureAt.getTime() < ADDRESS_FAILURE_MEMORY_MS;
  const failures = remembered ? state.failures + 1 : 1;
  let lockedUntil = remembered ? state.lockedUntil : null;
  if (failures % ADDRESS_FAILURE_LIMIT === 0) {
    const round = failures / ADDRESS_FAILURE_LIMIT;
    const ms = Math.min(ADDRESS_LOCKOUT_MS * 2 ** (round - 1), ADDRESS_LOCKOUT_MAX_MS);
    lockedUntil = new Date(now.getTime() + ms);
  }
  return { failures, lastFailureAt: now, lockedUntil };
}

/** A re-authentication proof (password or fresh code) is good for ten minutes. */
export const REAUTH_TTL_SECONDS = 10 * 60;
export const REAUTH_PURPOSES = ['payment_profile'] as const;

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email());

/** At least 8 characters with an uppercase and a lowercase letter, a number and a special character. */
export function assertPasswordRules(password: string): void {
  const ok =
    password.length >= PASSWORD_MIN_LENGTH &&
    /[A-Z]/.test(password) &&
    /[a-z]/.test(password) &&
    /[0-9]/.test(password) &&
    /[^A-Za-z0-9]/.test(password);
  if (!ok) throw new AppError('invalid_password');
}

export function assertPasswordsMatch(password: string, repeatPassword: string): void {
  if (password !== repeatPassword)
    throw new AppError('invalid_user_input', 'Passwords do not match');
}

/** Whole years between birthday and today (calendar, not 365-day years). */
export function ageOn(birthday: Date, today: Date): number {
  let age = today.getUTCFullYear() - birthday.getUTCFullYear();
  const beforeBirthday =
    today.getUTCMonth() < birthday.getUTCMonth() ||
    (today.getUTCMonth() === birthday.getUTCMonth() && today.getUTCDate() < birthday.getUTCDate());
  if (beforeBirthday) age -= 1;
  return age;
}

/** A calendar date YYYY-MM-DD that exists and lies in the past. */
export function parseBirthday(value: string, today: Date): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const date = match
    ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
    : null;
  const valid =
    date !== null &&
    date.getUTCFullYear() === Number(match![1]) &&
    date.getUTCMonth() === Number(match![2]) - 1 &&
    date.getUTCDate() === Number(match![3]);
  if (!valid || date >= today) throw new AppError('invalid_user_input', 'Invalid birthday');
  return date;
}

/** The age rules: at least 16 to register; 18 or more sets the adult-content flag. */
export function ageVerdict(birthday: Date, today: Date): { eighteenPlusContent: boolean } {
  const age = ageOn(birthday, today);
  if (age < MINIMUM_AGE) {
    throw new AppError(
      'invalid_user_input',
      'You must be at least 16 years old to create an account',
    );
  }
  return { eighteenPlusContent: age >= ADULT_AGE };
}

/** International format: an optional +, then 8 to 15 digits; spaces, dashes and dots ignored. */
export function normalisePhoneNumber(value: string): string {
  const compact = value.replace(/[\s().-]/g, '');
  if (!/^\+?[1-9]\d{7,14}$/.test(compact)) throw new AppError('invalid_phone_number');
  return compact;
}

/** The page to come back to: a path of this site, never another origin. */
export function assertOriginUrl(originUrl: string): void {
  const ok =
    originUrl.startsWith('/') &&
    !originUrl.startsWith('//') &&
    !originUrl.includes('\\') &&
    originUrl.length <= 2048 &&
    ![...originUrl].some((char) => char.trim() === '' || char.charCodeAt(0) < 0x20);
  if (!ok) throw new AppError('invalid_origin_url');
}
