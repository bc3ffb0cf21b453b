import { AppError } from '@challenge/kit';
import { EUROPEAN_COUNTRIES, type EuropeanCountry } from '@challenge/kit/countries';

// The lists are shared with the web app (one source: packages/kit/src/countries.ts).
export { EEA_COUNTRIES, EUROPEAN_COUNTRIES, type EuropeanCountry } from '@challenge/kit/countries';

/** IBAN length per country, from the SWIFT IBAN registry: every country of the list has IBANs. */
export const IBAN_LENGTHS: Readonly<Record<EuropeanCountry, number>> = {
  AD: 24, AL: 28, AT: 20, BA: 20, BE: 16, BG: 22, BY: 28, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18,
  EE: 20, ES: 24, FI: 18, FR: 27, GB: 22, GR: 27, HR: 21, HU: 28, IE: 22, IS: 26, IT: 27, LI: 21,
  LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MT: 31, NL: 18, NO: 15, PL: 28, PT: 25,
  RO: 24, RS: 22, RU: 33, SE: 24, SI: 19, SK: 24, SM: 27, UA: 29, VA: 22, XK: 20,
}; // prettier-ignore

/** ISO 3166-1 alpha-2 codes, plus XK (Kosovo), which SWIFT and the EU use. */
const COUNTRY_CODES = new Set(
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS
   BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE
   EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM
   HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC
   LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
   NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW
   SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO
   TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW XK`.split(/\s+/),
);

/** Territories whose banks may carry their own country code in the BIC but use the IBAN of: */
const IBAN_TERRITORIES: Readonly<Record<string, readonly string[]>> = {
  FI: ['AX'],
  FR: ['BL', 'GF', 'GP', 'MF', 'MQ', 'NC', 'PF', 'PM', 'RE', 'TF', 'WF', 'YT'],
  GB: ['GG', 'IM', 'JE'],
};

export function isCountryCode(value: string): boolean {
  return COUNTRY_CODES.has(value);
}

export function isEuropeanCountry(value: string): value is EuropeanCountry {
  return (EUROPEAN_COUNTRIES as readonly string[]).includes(value);
}

const compact = (value: string) => value.replace(/\s+/g, '').toUpperCase();

/** The remainder of a decimal digit string divided by 97, digit by digit (no big numbers). */
function mod97(digits: string): number {
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest;
}

/**
 * An IBAN (ISO 13616) of a country in the European list, normalised to upper case without
 * spaces; otherwise `invalid_input` saying what is wrong. Checks the shape, the length of the
 * country and the mod-97 check digits; not each country's BBAN layout.
 */
export function validateIban(value: string): string {
  const iban = compact(value);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) {
    throw new AppError(
      'invalid_input',
      'The IBAN must start with a country code and two check digits, followed by letters and digits.',
    );
  }
  const country = iban.slice(0, 2);
  if (!isEuropeanCountry(country)) {
    throw new AppError('invalid_input', `IBANs from ${country} are not accepted: Europe only.`);
  }
  const length = IBAN_LENGTHS[country];
  if (iban.length !== length) {
    throw new AppError(
      'invalid_input',
      `An IBAN from ${country} has ${length} characters, this one has ${iban.length}.`,
    );
  }
  const checkDigits = Number(iban.slice(2, 4));
  const digits = [...(iban.slice(4) + iban.slice(0, 4))]
    .map((char) => parseInt(char, 36).toString())
    .join('');
  if (checkDigits < 2 || checkDigits > 98 || mod97(digits) !== 1) {
    throw new AppError('invalid_input', 'The IBAN is not valid: its check digits do not match.');
  }
  return iban;
}

/** The IBAN in groups of four for display: `NL91 ABNA 0417 1643 00`. */
export function formatIban(iban: string): string {
  return compact(iban).replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * A BIC (ISO 9362): 4 letters for the institution, its country, a 2-character location code and
 * an optional 3-character branch, normalised to upper case. The shape is the one the pain.001.001.03
 * schema accepts (the stricter of the two), so a valid BIC fits both versions. With `ibanCountry`,
 * the BIC's country must be the IBAN's (or one of its territories, such as JE for GB).
 */
export function validateBic(value: string, ibanCountry?: string): string {
  const bic = compact(value);
  if (!/^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/.test(bic)) {
    throw new AppError(
      'invalid_input',
      'The BIC must have 8 or 11 characters: bank code, country, location and optional branch.',
    );
  }
  const country = bic.slice(4, 6);
  if (!isCountryCode(country)) {
    throw new AppError('invalid_input', `The BIC's country code ${country} does not exist.`);
  }
  if (
    ibanCountry !== undefined &&
    country !== ibanCountry &&
    !IBAN_TERRITORIES[ibanCountry]?.includes(country)
  ) {
    throw new AppError(
      'invalid_input',
      `The BIC is from ${country} but the IBAN from ${ibanCountry}: they must belong to the same bank.`,
    );
  }
  return bic;
}

/** A payout asked within this time after the IBAN was replaced waits for staff (ADR 21). */
export const IBAN_CHANGE_HOLD_MS = 24 * 60 * 60 * 1000;

export function isRecentIbanChange(changedAt: Date | null | undefined, now: Date): boolean {
  return changedAt != null && now.getTime() - changedAt.getTime() < IBAN_CHANGE_HOLD_MS;
}

/** The last four characters, the only part of an IBAN that goes into a notice e-mail. */
export const ibanEnding = (iban: string): string => compact(iban).slice(-4);
