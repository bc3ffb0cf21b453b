import { describe, expect, it } from 'vitest';
import { ERROR_PAGE_STATUS, resolveErrorPageKey } from './errorPage';

describe('error page keys', () => {
  it('keeps the identifiers that have their own text', () => {
    for (const key of [
      'user_not_found',
      'challenge_not_found',
      'access_denied',
      'ip_lookup_failed',
      'error_verifying_location',
      'access_denied_location',
    ]) {
      expect(resolveErrorPageKey(key)).toBe(key);
    }
  });

  it('turns any other identifier into page_not_found', () => {
    expect(resolveErrorPageKey('insufficient_funds')).toBe('page_not_found');
    expect(resolveErrorPageKey(undefined)).toBe('page_not_found');
    expect(resolveErrorPageKey('')).toBe('page_not_found');
  });

  it('gives location failures a 500 and missing things a 404', () => {
    expect(ERROR_PAGE_STATUS.access_denied_location).toBe(500);
    expect(ERROR_PAGE_STATUS.challenge_not_found).toBe(404);
    expect(ERROR_PAGE_STATUS.access_denied).toBe(403);
  });
});
