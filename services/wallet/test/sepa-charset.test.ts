import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSepaReference, isSepaText, toSepaText } from '../src/domain/sepa/charset.ts';
import { escapeXml } from '../src/domain/sepa/xml.ts';

describe('toSepaText', () => {
  it.each([
    ['Zoë Dupré-Müller', 'Zoe Dupre-Muller'],
    ['Straße', 'Strasse'],
    ['STRAẞE', 'STRASSE'],
    ['Søren Ærø', 'Soren Aero'],
    ['Łukasz Żółć', 'Lukasz Zolc'],
    ['Œuvre & Fils', 'Oeuvre + Fils'],
    ['Þór Ðiðriksson', 'Thor Didriksson'],
    ['Ахмед Щукин', 'Akhmed Shchukin'],
    ['Олексій Їжак', 'Oleksiy Yizhak'],
    ['Νίκος Παπαδόπουλος', 'Nikos Papadopoulos'],
    ['ΓΙΑΝΝΗΣ ΚΟΥΡΗΣ', 'GIANNIS KOURIS'],
    ['ΘΕΟΔΩΡΟΣ ЖУКОВ Щ', 'THEODOROS ZHUKOV Shch'],
    ['O’Brien', "O'Brien"],
    ['Jan "Jantje" Jansen', 'Jan Jantje Jansen'],
    ['<script>alert(1)</script>', 'script alert(1) /script'],
    ['Payout 🎉🎉 for   you', 'Payout for you'],
    ['ﬁnance Ｃｏ', 'finance Co'],
    ['山田太郎', ''],
    ['a;b|c_d@e#f', 'a b c d e f'],
  ])('%j becomes %j', (input, expected) => {
    expect(toSepaText(input, 140)).toBe(expected);
  });

  it('cuts after transliteration and drops a trailing space', () => {
    expect(toSepaText('ßßßß', 5)).toBe('sssss');
    expect(toSepaText('abcd efgh', 5)).toBe('abcd');
  });

  it('always yields SEPA characters within the length, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 140 }), (s, max) => {
        const text = toSepaText(s, max);
        expect(isSepaText(text)).toBe(true);
        expect(text.length).toBeLessThanOrEqual(max);
        expect(text).toBe(text.trim());
        expect(text).not.toMatch(/ {2}/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('isSepaReference', () => {
  it.each(['PAYOUT-2026-01-15', 'a', 'x'.repeat(35), "A/B-C?D:E(F).G,H'I+J K"])(
    'accepts %j',
    (id) => expect(isSepaReference(id)).toBe(true),
  );
  it.each(['', 'x'.repeat(36), 'payé', '/lead', 'trail/', 'a//b', ' space', 'a&b', 'a_b'])(
    'refuses %j',
    (id) => expect(isSepaReference(id)).toBe(false),
  );
});

describe('escapeXml', () => {
  it('escapes the special characters and drops what XML cannot carry', () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;',
    );
    expect(escapeXml('a\u0000b\u0007c\uD800d\té')).toBe('abcd\té');
  });
});
