import { describe, expect, it } from 'vitest';
import { actionForStatus, newProofPhrase, parseReason } from '../src/domain/status.ts';

describe('parseReason', () => {
  it.each([undefined, null, '', '   \n'])('requires a reason: %j', (value) => {
    expect(() => parseReason(value)).toThrow('Please provide a reason');
  });

  it('counts characters as code points, not UTF-16 units', () => {
    const emoji = '🏃'; // two UTF-16 units
    expect(parseReason(emoji.repeat(800))).toBe(emoji.repeat(800));
    expect(() => parseReason(emoji.repeat(801))).toThrow('Exceeds character limit of 800');
    expect(() => parseReason('a'.repeat(801))).toThrow(
      expect.objectContaining({ identifier: 'invalid_input' }),
    );
  });

  it('trims', () => {
    expect(parseReason('  too dark  ')).toBe('too dark');
  });
});

describe('actionForStatus', () => {
  it('maps the asked status to the action of the table', () => {
    expect(actionForStatus('accepted')).toBe('accept');
    expect(actionForStatus('refused')).toBe('decline');
    expect(actionForStatus('completed')).toBe('approve');
    expect(actionForStatus('referee')).toBe('reject');
    // A referee's own action (the system's, from moderation's case): nobody's here.
    expect(actionForStatus('failed')).toBe('refereeFail');
  });

  it('refuses statuses nobody asks for (invalid_status_change) and unknown ones (invalid_status)', () => {
    for (const status of ['draft', 'open', 'review', 'expired']) {
      expect(() => actionForStatus(status)).toThrow(
        expect.objectContaining({ identifier: 'invalid_status_change' }),
      );
    }
    expect(() => actionForStatus('done')).toThrow(
      expect.objectContaining({ identifier: 'invalid_status' }),
    );
  });
});

describe('newProofPhrase', () => {
  it('is short and varies', () => {
    const phrases = new Set(Array.from({ length: 50 }, newProofPhrase));
    for (const phrase of phrases) expect(phrase).toMatch(/^[a-z]+ [a-z]+ \d{2}$/);
    expect(phrases.size).toBeGreaterThan(40);
  });
});
