/**
 * The country lists the server and the web app share (no Node imports: the web app bundles it).
 */

/** The product spec's European country list (section 3, "Country enumeration"): 46 codes. */
export const EUROPEAN_COUNTRIES = [
  'AD', 'AL', 'AT', 'BA', 'BE', 'BG', 'BY', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR',
  'GB', 'GR', 'HR', 'HU', 'IE', 'IS', 'IT', 'LI', 'LT', 'LU', 'LV', 'MC', 'MD', 'ME', 'MK', 'MT',
  'NL', 'NO', 'PL', 'PT', 'RO', 'RS', 'RU', 'SE', 'SI', 'SK', 'SM', 'UA', 'VA', 'XK',
] as const; // prettier-ignore

export type EuropeanCountry = (typeof EUROPEAN_COUNTRIES)[number];

/**
 * The European Economic Area: the EU's 27 and Iceland, Liechtenstein and Norway. A SEPA credit
 * transfer to an IBAN of these needs no BIC (Regulation (EU) No 260/2012, "IBAN-only"), so the
 * payment profile asks for one only for the other SEPA countries (issue 22, point 14).
 */
export const EEA_COUNTRIES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT',
  'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'IS', 'LI', 'NO',
]); // prettier-ignore
