import { describe, expect, it } from 'vitest';
import { formatAmount } from './money';

// Intl separates the symbol with a no-break space; compare with plain spaces for readability.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatAmount (integer euro cents)', () => {
  it('formats Dutch amounts as nl-NL euros', () => {
    expect(plain(formatAmount(123456, 'nl'))).toBe('€ 1.234,56');
    expect(plain(formatAmount(5, 'nl'))).toBe('€ 0,05');
    expect(plain(formatAmount(0, 'nl'))).toBe('€ 0,00');
    expect(plain(formatAmount(-2550, 'nl'))).toBe('€ -25,50');
  });

  it('formats English (and every other language) as en-GB euros', () => {
    expect(plain(formatAmount(123456, 'en'))).toBe('€1,234.56');
    expect(plain(formatAmount(5, 'en'))).toBe('€0.05');
    expect(plain(formatAmount(100000000, 'en'))).toBe('€1,000,000.00');
    expect(plain(formatAmount(999, 'de'))).toBe('€9.99');
  });

  it('treats the value as cents, never as euros', () => {
    expect(plain(formatAmount(500, 'en'))).toBe('€5.00');
    expect(plain(formatAmount(500, 'nl'))).toBe('€ 5,00');
  });

  it('refuses a value that is not a number of cents', () => {
    expect(() => formatAmount(Number.NaN, 'en')).toThrow(RangeError);
  });
});
