import { AppError } from '@challenge/kit';
import { describe, expect, it } from 'vitest';
import {
  challengeLink,
  parseCommentText,
  parseShareEmails,
  revealsPrivate,
  whatsappText,
} from '../src/domain/social.ts';

const user = (id: string) => ({
  id,
  roles: ['user' as const],
  tokenId: 't',
  issuedAt: 0,
  expiresAt: 0,
  sessionVersion: 0,
});

const identifierOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof AppError ? `${error.identifier}: ${error.message}` : String(error);
  }
  return 'no error';
};

describe('comment text', () => {
  it('is trimmed, required, and at most 800 characters counted as code points', () => {
    expect(parseCommentText('  nice  ')).toBe('nice');
    expect(identifierOf(() => parseCommentText(' \n '))).toBe(
      'invalid_input: This field is required',
    );
    expect(parseCommentText('é'.repeat(800))).toHaveLength(800);
    expect(parseCommentText('🎉'.repeat(800))).toHaveLength(1600);
    expect(identifierOf(() => parseCommentText('a'.repeat(801)))).toBe(
      'invalid_input: Exceeds character limit of 800',
    );
  });
});

describe('share addresses', () => {
  it('splits on commas, semicolons and spaces, lower-cases and drops repeats', () => {
    expect(parseShareEmails(' A@example.com,b@example.com; a@example.com  c@example.com ')).toEqual(
      ['a@example.com', 'b@example.com', 'c@example.com'],
    );
  });
  it('refuses none, a malformed one, and more than 10', () => {
    expect(identifierOf(() => parseShareEmails(' , '))).toMatch(/^invalid_challenged_email/);
    expect(identifierOf(() => parseShareEmails('a@example.com, nope'))).toMatch(
      /^invalid_challenged_email/,
    );
    const eleven = Array.from({ length: 11 }, (_, i) => `u${i}@example.com`).join(',');
    expect(identifierOf(() => parseShareEmails(eleven))).toMatch(/^invalid_input/);
  });
});

describe('the public link and the WhatsApp text', () => {
  it('puts the slug under the origin, and the name and link in the text', () => {
    const link = challengeLink('https://challenge.example.com', 'run-5-km');
    expect(link).toBe('https://challenge.example.com/challenge/run-5-km/detail');
    expect(whatsappText('en', 'Run 5 km', link)).toBe(
      `Check out this challenge: "Run 5 km" ${link}`,
    );
    expect(whatsappText('nl', 'Run 5 km', link)).toBe(`Bekijk deze challenge: "Run 5 km" ${link}`);
  });
});

describe('private items of a profile', () => {
  it('go only to the profile user who asks', () => {
    expect(revealsPrivate(user('a'), 'a', true)).toBe(true);
    expect(revealsPrivate(user('a'), 'a', false)).toBe(false);
    expect(revealsPrivate(user('b'), 'a', true)).toBe(false);
    expect(revealsPrivate(null, 'a', true)).toBe(false);
  });
});
