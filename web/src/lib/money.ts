import { intlLocale } from './locale';

/**
 * How each UI locale writes euros: what `Intl.NumberFormat(locale, { style: 'currency',
 * currency: 'EUR' })` writes (CLDR), for the two locales the app has (lib/locale.ts).
 * Written out rather than asked of Intl: a page's first Intl number format loads the engine's
 * number data, 15 to 50 ms on a fast computer and four times that on a phone, in the middle of
 * the render of the first list with amounts (docs/adr/0101). `money.test.ts` compares every
 * case with Intl.
 */
const EURO_FORMATS = {
  'en-GB': {
    group: ',',
    decimal: '.',
    write: (sign: string, number: string) => `${sign}€${number}`,
  },
  'nl-NL': {
    group: '.',
    decimal: ',',
    write: (sign: string, number: string) => `€\u00a0${sign}${number}`,
  },
} as const;

/**
 * Integer cents as euros in the locale; `signed` writes a + before an amount above zero (Intl's
 * `signDisplay: 'exceptZero'`).
 */
export function formatEuros(cents: number, language: string | undefined, signed = false): string {
  if (!Number.isFinite(cents)) {
    throw new RangeError(`Amount must be a finite number of cents, got ${cents}`);
  }
  // Amounts are integer cents; rounding guards against a stray float from a caller.
  const whole = Math.round(cents);
  const { group, decimal, write } = EURO_FORMATS[intlLocale(language)];
  const absolute = Math.abs(whole);
  const euros = String(Math.trunc(absolute / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const fraction = String(absolute % 100).padStart(2, '0');
  const sign = whole < 0 ? '-' : signed && whole > 0 ? '+' : '';
  return write(sign, `${euros}${decimal}${fraction}`);
}

/**
 * Formats an amount of INTEGER euro cents (the unit of every amount the API returns) as euros in
 * the UI language: `123456` is "€ 1.234,56" in Dutch and "€1,234.56" in English.
 */
export function formatAmount(cents: number, language: string | undefined): string {
  return formatEuros(cents, language);
}

/** The largest amount a user can type in a euro field, in cents (€ 100,000). */
export const MAX_INPUT_CENTS = 100_000_00;

/**
 * Reads an amount of euros as typed by a person ("5", "12.5", "12,50", "€ 7") and returns INTEGER
 * cents, or null when it is not an amount with at most two decimals. No thousands separators: in
 * a form "1.000" is ambiguous between the two languages.
 */
export function parseEuroInput(text: string): number | null {
  const compact = text.replace(/[\s\u00a0€]/g, '');
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(compact);
  if (!match) return null;
  const euros = Number(match[1]);
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  return euros * 100 + cents;
}

/** Cents as the text of a euro input field in the UI language: 1250 is "12.50" or "12,50". */
export function formatEuroInput(cents: number, language: string | undefined): string {
  const whole = Math.trunc(Math.round(cents) / 100);
  const fraction = String(Math.abs(Math.round(cents) % 100)).padStart(2, '0');
  const separator = intlLocale(language) === 'nl-NL' ? ',' : '.';
  return `${whole}${separator}${fraction}`;
}
