import { describe, expect, it, vi } from 'vitest';
import { formatAmount, formatEuroInput, formatEuros, parseEuroInput } from './money';

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

  it('writes what Intl writes, in both locales, signed or not', () => {
    const cents = [0, 1, 5, 10, 99, 100, 101, 999, 1000, 12345, 99999, 100000, 123456, 1000000];
    // No -0: Intl writes "-€0.00", which no amount of cents is.
    const values = [...cents, ...cents.slice(1).map((value) => -value), 100_000_00, 2 ** 40];
    for (const [language, locale] of [
      ['en', 'en-GB'],
      ['nl', 'nl-NL'],
    ] as const) {
      const plainIntl = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' });
      const signedIntl = new Intl.NumberFormat(locale, {
        style: 'currency',
        currency: 'EUR',
        signDisplay: 'exceptZero',
      });
      for (const value of values) {
        expect(formatEuros(value, language)).toBe(plainIntl.format(value / 100));
        expect(formatEuros(value, language, true)).toBe(signedIntl.format(value / 100));
      }
    }
  });

  it('never asks Intl: a first number format costs a phone a long task (ADR 101)', () => {
    const numberFormat = vi.spyOn(Intl, 'NumberFormat');
    try {
      formatAmount(123456, 'nl');
      formatEuros(-2550, 'en', true);
      expect(numberFormat).not.toHaveBeenCalled();
    } finally {
      numberFormat.mockRestore();
    }
  });
});

describe('parseEuroInput (typed euros to integer cents)', () => {
  it('reads whole euros and up to two decimals with a dot or a comma', () => {
    expect(parseEuroInput('5')).toBe(500);
    expect(parseEuroInput('12.5')).toBe(1250);
    expect(parseEuroInput('12,50')).toBe(1250);
    expect(parseEuroInput(' € 0,99 ')).toBe(99);
    expect(parseEuroInput('19.99')).toBe(1999);
  });

  it('refuses anything that is not an amount', () => {
    for (const text of ['', 'abc', '1.234,56', '-5', '1.999', '5e2']) {
      expect(parseEuroInput(text)).toBeNull();
    }
  });

  it('formats cents back for the input in the UI language', () => {
    expect(formatEuroInput(1250, 'en')).toBe('12.50');
    expect(formatEuroInput(1250, 'nl')).toBe('12,50');
    expect(formatEuroInput(5, 'en')).toBe('0.05');
  });
});
