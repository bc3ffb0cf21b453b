import { describe, expect, it } from 'vitest';
import { SERVER_ERROR_IDENTIFIERS } from '../lib/errorIdentifiers';
import en from './en.json';
import nl from './nl.json';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [child, text] of flatten(value, path)) entries.set(child, text);
  }
  return entries;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

const english = flatten(en);
const dutch = flatten(nl);

describe('locale files', () => {
  it('have exactly the same keys in English and Dutch', () => {
    const missingInDutch = [...english.keys()].filter((key) => !dutch.has(key));
    const missingInEnglish = [...dutch.keys()].filter((key) => !english.has(key));
    expect(missingInDutch).toEqual([]);
    expect(missingInEnglish).toEqual([]);
  });

  it("hold spec section 5's validation texts word for word in English, each with its Dutch", () => {
    const spec = [
      'Passwords do not match',
      'Please accept the terms and conditions',
      'You must be at least 16 years old to create an account',
      'You must be 18 years or older to use the product',
      'Please add a title',
      'Please add a description',
      'Please add at least one tag',
      'Please accept to use credit',
      'No valid email addresses found',
      'Please provide a reason',
      'Please provide details for your report.',
      'This field is required',
      'Minimum length is {{length}} characters',
      'Requires at least {{length}} characters',
      'Exceeds character limit of {{limit}}',
      'Exceeds the maximum number of characters of {{limit}}',
      'Value is required',
      'Value is not a valid email address',
      'This field should be at least {{min}} characters long',
      'The maximum length allowed is {{max}}',
      'Value must be numeric',
      'The minimum value allowed is {{min}}',
      'The maximum value allowed is {{max}}',
      'The value must be equal to the {{other}} value',
      'File is too large',
    ];
    // A full stop the spec's sentence leaves out is the same text.
    const keyOf = (text: string) =>
      [...english].find(([, value]) => value === text || value === `${text}.`)?.[0];
    expect(spec.filter((text) => !keyOf(text))).toEqual([]);
    for (const text of spec) expect(dutch.get(keyOf(text)!)).not.toBe(english.get(keyOf(text)!));
  });

  it('have a non-empty text for every key', () => {
    const empty = [...english, ...dutch]
      .filter(([, text]) => text.trim() === '')
      .map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('use the same interpolation variables in both languages', () => {
    const mismatched = [...english].filter(
      ([key, text]) => placeholders(text).join() !== placeholders(dutch.get(key) ?? '').join(),
    );
    expect(mismatched.map(([key]) => key)).toEqual([]);
  });

  it('translate every server error identifier of the catalogue', () => {
    for (const texts of [english, dutch]) {
      const missing = SERVER_ERROR_IDENTIFIERS.filter(
        (identifier) => !texts.has(`errors.${identifier}`),
      );
      expect(missing).toEqual([]);
    }
    expect(SERVER_ERROR_IDENTIFIERS).toHaveLength(65);
  });

  it('do not leave Dutch texts untranslated', () => {
    const sameAsEnglish = [...dutch]
      .filter(([key, text]) => key.startsWith('errors.') && text === english.get(key))
      .map(([key]) => key);
    expect(sameAsEnglish).toEqual([]);
  });

  it('name the same action the same wherever it is offered', () => {
    // The sidebar's and the dashboard's "start a challenge" sat side by side in Dutch as
    // "Start een challenge" and "Start een uitdaging".
    for (const texts of [english, dutch]) {
      expect(texts.get('challenge.startOne')).toBe(texts.get('nav.startChallenge'));
    }
  });

  it('Dutch says "challenge" throughout, never also "uitdaging", and "Gevolgd" for Following (issue 22, point 14)', () => {
    const mixed = [...dutch].filter(([, text]) => /uitdaging/i.test(text)).map(([key]) => key);
    expect(mixed).toEqual([]);
    expect(dutch.get('nav.discoverFollowing')).toBe('Gevolgd');
    expect(dutch.get('discover.following.title')).toBe('Gevolgd');
  });

  it("a control's accessible name holds its visible label (axe: label-content-name-mismatch)", () => {
    // `<action>For` names a button whose text is `<action>` ("Resolve" → "Resolve the €1.00 held
    // from @x"): speech users say what they see. The Dutch "Handel de … af" did not hold
    // "Afhandelen". `publicCard.byFor` is a byline, not a control's name.
    for (const texts of [english, dutch]) {
      const mismatched = [...texts]
        .filter(([key]) => key.endsWith('For') && key !== 'challenge.publicCard.byFor')
        .filter(([key, name]) => {
          const label = texts.get(key.slice(0, -'For'.length));
          return label !== undefined && !name.toLowerCase().includes(label.toLowerCase());
        })
        .map(([key]) => key);
      expect(mismatched).toEqual([]);
    }
  });
});
