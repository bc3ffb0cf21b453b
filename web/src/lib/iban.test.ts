import { describe, expect, it } from 'vitest';
import { compactBankCode, formatIban, ibanProblem, isBicShape, maskIban } from './iban';

describe('IBAN helpers', () => {
  it('compacts and groups an IBAN', () => {
    expect(compactBankCode(' nl91 abna 0417 1643 00 ')).toBe('NL91ABNA0417164300');
    expect(formatIban('NL91ABNA0417164300')).toBe('NL91 ABNA 0417 1643 00');
  });

  it('masks the middle of an IBAN, keeping the country, check digits and last four', () => {
    expect(maskIban('NL91ABNA0417164300')).toBe('NL91 •••• 4300');
    expect(maskIban('nl91 abna 0417 1643 00')).toBe('NL91 •••• 4300');
    expect(maskIban('NL91')).toBe('NL ••••');
  });

  it('accepts valid IBANs, with or without spaces', () => {
    expect(ibanProblem('NL91ABNA0417164300')).toBeNull();
    expect(ibanProblem('de89 3704 0044 0532 0130 00')).toBeNull();
    expect(ibanProblem('BE68539007547034')).toBeNull();
  });

  it('tells a wrong shape from a wrong check digit', () => {
    expect(ibanProblem('')).toBe('shape');
    expect(ibanProblem('1234567890')).toBe('shape');
    expect(ibanProblem('NL91ABNA')).toBe('shape');
    expect(ibanProblem('NL91ABNA0417164301')).toBe('checksum');
    expect(ibanProblem('NL19ABNA0417164300')).toBe('checksum');
  });

  it('checks the shape of a BIC', () => {
    expect(isBicShape('ABNANL2A')).toBe(true);
    expect(isBicShape('deutdeff500')).toBe(true);
    expect(isBicShape('ABNA')).toBe(false);
    expect(isBicShape('ABNANL2A1')).toBe(false);
  });
});
