import { AppError } from '@challenge/kit';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_LOCKOUT_MAX_MS,
  afterFailedAttempt,
  isLockedOut,
  type AddressFailures,
  ageOn,
  ageVerdict,
  assertOriginUrl,
  assertPasswordRules,
  assertPasswordsMatch,
  normalisePhoneNumber,
  parseBirthday,
} from '../src/domain/rules.ts';

const today = new Date(Date.UTC(2026, 10, 22));
const yearsAgo = (years: number, days = 0) =>
  new Date(
    Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate() + days),
  );

describe('password rules', () => {
  it.each(['Abcdef1!', 'Correct-Horse-9', 'ÄbcdefG1#'])('accepts %s', (password) => {
    expect(() => assertPasswordRules(password)).not.toThrow();
  });
  it.each([
    ['too short', 'Ab1!xyz'],
    ['no uppercase', 'abcdef1!'],
    ['no lowercase', 'ABCDEF1!'],
    ['no number', 'Abcdefg!'],
    ['no special character', 'Abcdefg1'],
  ])('refuses a password with %s', (_why, password) => {
    expect(() => assertPasswordRules(password)).toThrow(new AppError('invalid_password'));
  });
  it('says "Passwords do not match"', () => {
    expect(() => assertPasswordsMatch('Abcdef1!', 'Abcdef1?')).toThrow('Passwords do not match');
  });
});

describe('age', () => {
  it('counts calendar years', () => {
    expect(ageOn(yearsAgo(16), today)).toBe(16);
    expect(ageOn(yearsAgo(16, 1), today)).toBe(15);
  });
  it('refuses 15 years and 364 days', () => {
    expect(() => ageVerdict(yearsAgo(16, 1), today)).toThrow(
      'You must be at least 16 years old to create an account',
    );
  });
  it('accepts exactly 16, without the adult flag', () => {
    expect(ageVerdict(yearsAgo(16), today)).toEqual({ eighteenPlusContent: false });
  });
  it('sets the adult flag from exactly 18, not a day before', () => {
    expect(ageVerdict(yearsAgo(18, 1), today)).toEqual({ eighteenPlusContent: false });
    expect(ageVerdict(yearsAgo(18), today)).toEqual({ eighteenPlusContent: true });
  });
  it('handles a 29 February birthday', () => {
    expect(ageOn(new Date(Date.UTC(2008, 1, 29)), new Date(Date.UTC(2026, 1, 28)))).toBe(17);
    expect(ageOn(new Date(Date.UTC(2008, 1, 29)), new Date(Date.UTC(2026, 2, 1)))).toBe(18);
  });
});

describe('birthday', () => {
  it('parses a real past date', () => {
    expect(parseBirthday('2000-02-29', today).toISOString()).toBe('2000-02-29T00:00:00.000Z');
  });
  it.each([
    '2001-02-29',
    '2000-13-01',
    '2000-00-10',
    '01-01-2000',
    'yesterday',
    '',
    '2026-11-22',
    '2030-01-01',
  ])('refuses %j as invalid or not in the past', (value) => {
    expect(() => parseBirthday(value, today)).toThrow(
      new AppError('invalid_user_input', 'Invalid birthday'),
    );
  });
});

describe('phone numbers', () => {
  it('normalises spaces and dashes', () => {
    expect(normalisePhoneNumber('+31 6-1234 5678')).toBe('+31612345678');
  });
  it.each(['12', 'phone', '+0612345678', '+1234567890123456'])('refuses %j', (value) => {
    expect(() => normalisePhoneNumber(value)).toThrow(new AppError('invalid_phone_number'));
  });
});

describe('origin URLs', () => {
  it.each(['/', '/challenge/create/step-1', '/profile/alice?x=1'])('accepts the path %j', (url) => {
    expect(() => assertOriginUrl(url)).not.toThrow();
  });
  it.each([
    'https://evil.example/',
    '//evil.example/x',
    'javascript:alert(1)',
    '/\\evil.example',
    'challenge',
    '/a b',
  ])('refuses %j', (url) => {
    expect(() => assertOriginUrl(url)).toThrow(new AppError('invalid_origin_url'));
  });
});

describe('failed codes per address (lockout)', () => {
  const at = (minutes: number) => new Date(today.getTime() + minutes * 60_000);
  const failTimes = (count: number, start: AddressFailures | null = null, minute = 0) => {
    let state = start;
    for (let i = 0; i < count; i += 1) state = afterFailedAttempt(state, at(minute));
    return state!;
  };

  it('locks the address at the tenth failure for an hour, then twice as long each round', () => {
    expect(isLockedOut(failTimes(9), at(0))).toBe(false);
    const ten = failTimes(10);
    expect(ten.lockedUntil).toEqual(at(60));
    expect(isLockedOut(ten, at(59))).toBe(true);
    expect(isLockedOut(ten, at(60))).toBe(false);
    const twenty = failTimes(10, ten, 61);
    expect(twenty.lockedUntil).toEqual(at(61 + 120));
  });

  it('locks for a day at most, and forgets failures after a week without one', () => {
    let state: AddressFailures | null = null;
    for (let round = 0; round < 8; round += 1) state = failTimes(10, state, round * 2000);
    expect(state!.lockedUntil!.getTime() - at(7 * 2000).getTime()).toBe(ADDRESS_LOCKOUT_MAX_MS);
    const later = afterFailedAttempt(state, at(7 * 2000 + 7 * 24 * 60 + 1));
    expect(later).toMatchObject({ failures: 1, lockedUntil: null });
  });
});
