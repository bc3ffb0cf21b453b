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
