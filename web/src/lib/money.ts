import { intlLocale } from './locale';

const formatters = new Map<string, Intl.NumberFormat>();

function currencyFormatter(locale: string): Intl.NumberFormat {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' });
    formatters.set(locale, formatter);
  }
  return formatter;
}

/**
 * Formats an amount of INTEGER euro cents (the unit of every amount the API returns) as euros in
 * the UI language: `123456` is "€ 1.234,56" in Dutch and "€1,234.56" in English.
 */
export function formatAmount(cents: number, language: string | undefined): string {
  if (!Number.isFinite(cents)) {
    throw new RangeError(`Amount must be a finite number of cents, got ${cents}`);
  }
  // Amounts are integer cents; rounding guards against a stray float from a caller.
  const euros = Math.round(cents) / 100;
  return currencyFormatter(intlLocale(language)).format(euros);
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
