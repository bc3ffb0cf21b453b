import { AppError } from '@challenge/kit';
import { describe, expect, it } from 'vitest';
import {
  EUROPEAN_COUNTRIES,
  IBAN_LENGTHS,
  formatIban,
  validateBic,
  validateIban,
} from '../src/domain/bank-account.ts';

/** The SWIFT IBAN registry's example for every country of the spec's European list. */
const REGISTRY_EXAMPLES = [
  'AD1200012030200359100100', 'AL47212110090000000235698741', 'AT611904300234573201',
  'BA391290079401028494', 'BE68539007547034', 'BG80BNBG96611020345678',
  'BY13NBRB3600900000002Z00AB00', 'CH9300762011623852957', 'CY17002001280000001200527600',
  'CZ6508000000192000145399', 'DE89370400440532013000', 'DK5000400440116243',
  'EE382200221020145685', 'ES9121000418450200051332', 'FI2112345600000785',
  'FR1420041010050500013M02606', 'GB29NWBK60161331926819', 'GR1601101250000000012300695',
  'HR1210010051863000160', 'HU42117730161111101800000000', 'IE29AIBK93115212345678',
  'IS140159260076545510730339', 'IT60X0542811101000000123456', 'LI21088100002324013AA',
  'LT121000011101001000', 'LU280019400644750000', 'LV80BANK0000435195001',
  'MC5811222000010123456789030', 'MD24AG000225100013104168', 'ME25505000012345678951',
  'MK07250120000058984', 'MT84MALT011000012345MTLCAST001S', 'NL91ABNA0417164300',
  'NO9386011117947', 'PL61109010140000071219812874', 'PT50000201231234567890154',
  'RO49AAAA1B31007593840000', 'RS35260005601001611379', 'RU0204452560040702810412345678901',
  'SE4550000000058398257466', 'SI56263300012039086', 'SK3112000000198742637541',
  'SM86U0322509800000000270100', 'UA213223130000026007233566001', 'VA59001123000012345678',
  'XK051212012345678906',
]; // prettier-ignore

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).identifier).toBe('invalid_input');
    return (error as AppError).message;
  }
  throw new Error('expected a refusal');
}

describe('the European country list', () => {
  it('has the 46 codes of the spec, each with an IBAN length', () => {
    expect(new Set(EUROPEAN_COUNTRIES).size).toBe(46);
    expect(Object.keys(IBAN_LENGTHS).sort()).toEqual([...EUROPEAN_COUNTRIES].sort());
    expect(REGISTRY_EXAMPLES.map((iban) => iban.slice(0, 2)).sort()).toEqual(
      [...EUROPEAN_COUNTRIES].sort(),
    );
  });
});

describe('validateIban', () => {
  it.each(REGISTRY_EXAMPLES)('accepts %s (checksum and length of its country)', (iban) => {
    expect(validateIban(iban)).toBe(iban);
    expect(iban).toHaveLength(IBAN_LENGTHS[iban.slice(0, 2) as keyof typeof IBAN_LENGTHS]);
  });

  it('normalises spaces and lower case', () => {
    expect(validateIban('nl91 abna 0417 1643 00')).toBe('NL91ABNA0417164300');
    expect(validateIban('  GB29 NWBK 6016 1331 9268 19 ')).toBe('GB29NWBK60161331926819');
    expect(validateIban('fr14\t2004 1010 0505 0001 3m02 606')).toBe('FR1420041010050500013M02606');
  });

  it.each([
    ['a changed digit', 'NL91ABNA0417164301'],
    ['two swapped digits', 'DE89370400440523013000'],
    ['wrong check digits', 'BE69539007547034'],
    ['a changed letter', 'GB29NWBK60161331926819'.replace('NWBK', 'NWBQ')],
    ['check digits 00 (an alias of 97)', 'DE00370400444824475771'],
    ['check digits 01 (an alias of 98)', 'DE01370400446095743397'],
    ['check digits 99 (an alias of 02)', 'DE99370400441222834598'],
  ])('refuses an IBAN with %s', (_why, iban) => {
    expect(refusal(() => validateIban(iban))).toMatch(/check digits/);
  });

  it('accepts the valid twins of the aliased check digits', () => {
    expect(validateIban('DE97370400444824475771')).toBe('DE97370400444824475771');
    expect(validateIban('DE98370400446095743397')).toBe('DE98370400446095743397');
    expect(validateIban('DE02370400441222834598')).toBe('DE02370400441222834598');
  });

  it.each([
    ['one character short', 'NL91ABNA041716430', /NL has 18 characters, this one has 17/],
    ['one character long', 'DE893704004405320130001', /DE has 22 characters, this one has 23/],
    ['a Belgian length for France', 'FR68539007547034', /FR has 27/],
  ])('refuses an IBAN %s', (_why, iban, message) => {
    expect(refusal(() => validateIban(iban))).toMatch(message);
  });

  it.each([
    ['Brazil', 'BR1800360305000010009795493C1'],
    ['Saudi Arabia', 'SA0380000000608010167519'],
    ['Turkey (not in the list)', 'TR330006100519786457841326'],
  ])('refuses a valid IBAN from %s', (_country, iban) => {
    expect(refusal(() => validateIban(iban))).toMatch(/Europe only/);
  });

  it.each(['', 'hello', '91NLABNA0417164300', 'NL91-ABNA-0417-1643-00', 'NL91ABNA0417164300!'])(
    'refuses the malformed value %j',
    (value) => {
      expect(refusal(() => validateIban(value))).toMatch(/country code and two check digits/);
    },
  );
});

describe('formatIban', () => {
  it('groups by four for display', () => {
    expect(formatIban('NL91ABNA0417164300')).toBe('NL91 ABNA 0417 1643 00');
    expect(formatIban('be68 5390 0754 7034')).toBe('BE68 5390 0754 7034');
    expect(formatIban('MT84MALT011000012345MTLCAST001S')).toBe(
      'MT84 MALT 0110 0001 2345 MTLC AST0 01S',
    );
  });
});

describe('validateBic', () => {
  it.each([
    ['ABNANL2A', 'ABNANL2A'],
    ['COBADEFFXXX', 'COBADEFFXXX'],
    ['deutdeff500', 'DEUTDEFF500'],
    ['BNPA FR PP', 'BNPAFRPP'],
    ['AIBKIE2D', 'AIBKIE2D'],
  ])('accepts %s', (bic, normalised) => {
    expect(validateBic(bic)).toBe(normalised);
  });

  it.each([
    ['7 characters', 'ABNANL2'],
    ['9 characters', 'ABNANL2AX'],
    ['12 characters', 'ABNANL2AXXXX'],
    ['a digit in the bank code', 'AB1ANL2A'],
    ['a location code starting with 1', 'ABNANL1A'],
    ['the letter O as second location character', 'ABNANL2O'],
    ['punctuation', 'ABNA-NL2A'],
  ])('refuses a BIC with %s', (_why, bic) => {
    expect(refusal(() => validateBic(bic))).toMatch(/8 or 11 characters/);
  });

  it('refuses a country part that is no country', () => {
    expect(refusal(() => validateBic('ABNAXX2A'))).toMatch(/country code XX does not exist/);
    expect(refusal(() => validateBic('ABNAUK2L'))).toMatch(/country code UK/);
  });

  it("checks the country part against the IBAN's country, territories included", () => {
    expect(validateBic('ABNANL2A', 'NL')).toBe('ABNANL2A');
    expect(validateBic('ABCDJESH', 'GB')).toBe('ABCDJESH');
    expect(validateBic('ABCDRERR', 'FR')).toBe('ABCDRERR');
    expect(refusal(() => validateBic('COBADEFF', 'NL'))).toMatch(
      /BIC is from DE but the IBAN from NL/,
    );
  });
});
