import { describe, expect, it } from 'vitest';
import { countryName, EUROPEAN_COUNTRY_CODES, europeanCountryOptions } from './countries';

describe('European countries', () => {
  it('has the 46 codes of the spec, each once', () => {
    expect(EUROPEAN_COUNTRY_CODES).toHaveLength(46);
    expect(new Set(EUROPEAN_COUNTRY_CODES).size).toBe(46);
    expect(EUROPEAN_COUNTRY_CODES).toEqual(expect.arrayContaining(['XK', 'RU', 'GB', 'NL']));
  });

  it('names countries in the UI language', () => {
    expect(countryName('NL', 'en')).toBe('Netherlands');
    expect(countryName('NL', 'nl')).toBe('Nederland');
    expect(countryName('DE', 'nl')).toBe('Duitsland');
  });

  it('sorts the options by their name in the UI language', () => {
    const dutch = europeanCountryOptions('nl').map((option) => option.name);
    expect(dutch).toHaveLength(46);
    expect(dutch.indexOf('België')).toBeLessThan(dutch.indexOf('Duitsland'));
    const english = europeanCountryOptions('en');
    expect(english[0]?.name).toBe('Albania');
  });
});
