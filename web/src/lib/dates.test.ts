import { describe, expect, it } from 'vitest';
import { formatDate, formatRelativeTime } from './dates';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);

describe('formatRelativeTime', () => {
  it('says "just now" for anything under one minute', () => {
    expect(formatRelativeTime(NOW, NOW, 'en', 'just now')).toBe('just now');
    expect(formatRelativeTime(NOW - 59_000, NOW, 'en', 'just now')).toBe('just now');
    expect(formatRelativeTime(NOW + 30_000, NOW, 'en', 'just now')).toBe('just now');
  });

  it('uses whole units from one minute on, in the UI language', () => {
    expect(formatRelativeTime(NOW - 60_000, NOW, 'en', 'just now')).toBe('1 minute ago');
    expect(formatRelativeTime(NOW - 3 * 3600_000, NOW, 'en', 'just now')).toBe('3 hours ago');
    expect(formatRelativeTime(NOW - 3 * 3600_000, NOW, 'nl', 'zojuist')).toBe('3 uur geleden');
    expect(formatRelativeTime(NOW + 14 * 24 * 3600_000, NOW, 'en', 'just now')).toBe('in 2 weeks');
  });
});

describe('formatDate', () => {
  it('uses nl-NL for Dutch and en-GB otherwise', () => {
    const date = new Date(Date.UTC(2025, 2, 7, 12));
    expect(
      formatDate(date, 'nl', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
    ).toBe('7 maart 2025');
    expect(
      formatDate(date, 'en', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
    ).toBe('7 March 2025');
    expect(formatDate(date, 'en', { dateStyle: 'short', timeZone: 'UTC' })).toBe('07/03/2025');
  });
});
