import { randomUUID } from 'node:crypto';
import { AppError } from '@challenge/kit';
import { describe, expect, it } from 'vitest';
import {
  PREFERENCES_LINK_TTL_SECONDS,
  challengeUrl,
  invitationSignupUrl,
  preferencesUrl,
  signPreferencesToken,
  verifyPreferencesToken,
} from '../src/domain/links.ts';

const secret = 'a-secret-of-at-least-thirty-two-characters';
const userId = randomUUID();

function identifierOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.identifier;
    throw error;
  }
  throw new Error('did not throw');
}

describe('preferences tokens', () => {
  it('name the user they were signed for, until they expire', () => {
    const signedAt = new Date('2026-11-22T12:00:00Z');
    const token = signPreferencesToken(secret, userId, signedAt);
    expect(token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(verifyPreferencesToken(secret, token, signedAt)).toBe(userId);
    const lastSecond = new Date(signedAt.getTime() + (PREFERENCES_LINK_TTL_SECONDS - 1) * 1000);
    expect(verifyPreferencesToken(secret, token, lastSecond)).toBe(userId);
    const expiry = new Date(signedAt.getTime() + PREFERENCES_LINK_TTL_SECONDS * 1000);
    expect(identifierOf(() => verifyPreferencesToken(secret, token, expiry))).toBe(
      'expired_credentials',
    );
  });

  it('are refused when signed with another key, changed, or malformed', () => {
    const token = signPreferencesToken(secret, userId);
    const [payload, signature] = token.split('.') as [string, string];
    const otherUser = Buffer.from(`${randomUUID()}.9999999999`).toString('base64url');
    const refused = [
      signPreferencesToken('another-secret-of-at-least-thirty-two-chars', userId),
      `${otherUser}.${signature}`,
      `${payload}.${signature.slice(0, -2)}`,
      `${payload}.${signature}.extra`,
      payload,
      '',
      'not a token at all',
      `${Buffer.from('not-a-uuid.9999999999').toString('base64url')}.${signature}`,
    ];
    for (const bad of refused) {
      expect(
        identifierOf(() => verifyPreferencesToken(secret, bad)),
        bad,
      ).toBe('unauthorized');
    }
  });
});

describe('links in e-mail', () => {
  const links = { publicOrigin: 'https://challenge.test', secret };

  it('lead to the web app’s pages', () => {
    expect(challengeUrl(links, 'juggle-5')).toBe(
      'https://challenge.test/challenge/juggle-5/detail',
    );
    expect(invitationSignupUrl(links, 'juggle-5')).toBe(
      'https://challenge.test/challenge/juggle-5/detail?modal=login-magic-link',
    );
    const url = new URL(preferencesUrl(links, userId));
    expect(url.origin + url.pathname).toBe('https://challenge.test/email-preferences');
    expect(verifyPreferencesToken(secret, url.searchParams.get('token')!)).toBe(userId);
  });
});
