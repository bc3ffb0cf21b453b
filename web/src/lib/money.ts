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
