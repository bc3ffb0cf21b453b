import { EUROPEAN_COUNTRIES, type EuropeanCountry } from '@challenge/kit/countries';
import { intlLocale } from './locale';

/**
 * The European countries of the product spec (section 3, "Country enumeration"): 46 codes,
 * including Kosovo (XK), Russia and the United Kingdom; the wallet service's list (one source).
 */
export const EUROPEAN_COUNTRY_CODES = EUROPEAN_COUNTRIES;

export type EuropeanCountryCode = EuropeanCountry;

export function isEuropeanCountryCode(value: unknown): value is EuropeanCountryCode {
  return typeof value === 'string' && (EUROPEAN_COUNTRY_CODES as readonly string[]).includes(value);
}

/** A country's name in the UI language ("Netherlands", "Nederland"); the code when unknown. */
export function countryName(code: string, language: string | undefined): string {
  try {
    return new Intl.DisplayNames([intlLocale(language)], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export interface CountryOption {
  code: EuropeanCountryCode;
  name: string;
}

/** The European countries with their names in the UI language, sorted as that language sorts. */
export function europeanCountryOptions(language: string | undefined): CountryOption[] {
  const locale = intlLocale(language);
  const collator = new Intl.Collator(locale);
  return EUROPEAN_COUNTRY_CODES.map((code) => ({ code, name: countryName(code, language) })).sort(
    (a, b) => collator.compare(a.name, b.name),
  );
}
