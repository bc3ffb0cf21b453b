import { EEA_COUNTRIES } from '@challenge/kit/countries';

/**
 * Light client-side checks and display helpers for bank account numbers. The wallet service is the
 * authority (it also checks each country's IBAN length and the BIC against the IBAN); these only
 * catch typing mistakes before a request and show numbers in a readable, private form.
 */

/** Upper case, without spaces: how IBANs and BICs are compared and sent. */
export function compactBankCode(value: string): string {
  return value.replace(/[\s\u00a0-]+/g, '').toUpperCase();
}

/** The IBAN in groups of four for display: `NL91 ABNA 0417 1643 00`. */
export function formatIban(value: string): string {
  return compactBankCode(value).replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The IBAN with its middle hidden, for screens that only need to recognise the account:
 * `NL91 •••• 4300`. Too short to hide anything useful: everything is masked but the country.
 */
export function maskIban(value: string): string {
  const iban = compactBankCode(value);
  if (iban.length < 10) return `${iban.slice(0, 2)} ••••`;
  return `${iban.slice(0, 4)} •••• ${iban.slice(-4)}`;
}

/** The remainder of a decimal digit string divided by 97, digit by digit (no big numbers). */
function mod97(digits: string): number {
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest;
}

export type IbanProblem = 'shape' | 'checksum';

/**
 * Why a typed IBAN cannot be right, or null: `shape` when it is not a country code, two check
 * digits and 11 to 30 letters or digits; `checksum` when the ISO 13616 mod-97 check fails (a
 * mistyped or swapped digit).
 */
export function ibanProblem(value: string): IbanProblem | null {
  const iban = compactBankCode(value);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return 'shape';
  const digits = [...(iban.slice(4) + iban.slice(0, 4))]
    .map((char) => parseInt(char, 36).toString())
    .join('');
  return mod97(digits) === 1 ? null : 'checksum';
}

/** Whether payouts to this IBAN need a BIC: yes unless it is from the EEA (or not typed yet). */
export function bicRequiredFor(iban: string): boolean {
  const country = compactBankCode(iban).slice(0, 2);
  return /^[A-Z]{2}$/.test(country) && !EEA_COUNTRIES.has(country);
}

/** A BIC's shape (ISO 9362): 4 letters for the bank, 2 for the country, 2 for the place, optional 3 for the branch. */
export function isBicShape(value: string): boolean {
  return /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(compactBankCode(value));
}
