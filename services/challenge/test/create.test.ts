import { describe, expect, it } from 'vitest';
import {
  checkTarget,
  expirationOf,
  newSlug,
  normaliseTags,
  oneLine,
  parseInvitedEmails,
} from '../src/domain/create.ts';
import { isValidSlug } from '../src/domain/slugs.ts';
import { isAdult } from '../src/domain/users.ts';
import type { KnownUserRecord } from '../src/data/users.ts';

const refusal = (identifier: string) => expect.objectContaining({ identifier });

describe('parseInvitedEmails', () => {
  it('splits on commas, trims and lower-cases', () => {
    expect(parseInvitedEmails(' Ann@Example.com, bob@example.org ,', 'me@example.com')).toEqual([
      'ann@example.com',
      'bob@example.org',
    ]);
  });
  it.each(['', ' , ', 'not-an-address', 'ann@example.com, nope'])(
    'refuses %j with invalid_challenged_email',
    (value) => {
      expect(() => parseInvitedEmails(value, 'me@example.com')).toThrow(
        refusal('invalid_challenged_email'),
      );
    },
  );
  it('refuses the same address twice, whatever its case', () => {
    expect(() => parseInvitedEmails('a@example.com, A@Example.com', 'me@example.com')).toThrow(
      refusal('duplicate_challenged_email'),
    );
  });
  it("refuses the owner's own address", () => {
    expect(() => parseInvitedEmails('a@example.com, ME@example.com', 'me@example.com')).toThrow(
      refusal('same_email'),
    );
  });
});

describe('expirationOf', () => {
  const now = new Date('2030-03-01T12:00:00.000Z');
  const day = 86_400_000;

  it('takes 1 to 9 weeks, 2 by default', () => {
    expect(expirationOf({}, now)).toEqual({
      expirationDate: new Date(now.getTime() + 14 * day),
      expirationTimeWeeks: 2,
    });
    expect(expirationOf({ expirationTimeWeeks: 9 }, now).expirationTimeWeeks).toBe(9);
    expect(() => expirationOf({ expirationTimeWeeks: 10 }, now)).toThrow(
      refusal('invalid_expiration_time'),
    );
    expect(() => expirationOf({ expirationTimeWeeks: 0 }, now)).toThrow(
      refusal('error_creating_challenge_object'),
    );
  });

  it('takes a date in the future, at least a week away and within 2 months', () => {
    const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
    expect(expirationOf({ expirationDate: at(10 * day) }, now)).toEqual({
      expirationDate: new Date(now.getTime() + 10 * day),
      expirationTimeWeeks: 2,
    });
    expect(() => expirationOf({ expirationDate: at(-day) }, now)).toThrow(
      refusal('invalid_expiration_date'),
    );
    expect(() => expirationOf({ expirationDate: '2030-05-02T12:00:00.000Z' }, now)).toThrow(
      refusal('invalid_expiration_date'),
    );
    expect(() => expirationOf({ expirationDate: 'tomorrow' }, now)).toThrow(
      refusal('invalid_expiration_date'),
    );
    expect(() => expirationOf({ expirationDate: at(3 * day) }, now)).toThrow(
      refusal('error_creating_challenge_object'),
    );
  });
});

describe('oneLine (a title)', () => {
  it('makes line breaks, tabs and invisible characters one space', () => {
    expect(oneLine('  Juggle\nthree\r\n\toranges\u2028now  ')).toBe('Juggle three oranges now');
    expect(oneLine('Zero\u200bwidth\u202eright-to-left\u0007bell')).toBe(
      'Zero width right-to-left bell',
    );
    expect(oneLine('Één keer 🎉 springen 👨\u200d👩\u200d👧')).toBe(
      'Één keer 🎉 springen 👨\u200d👩\u200d👧',
    );
  });
});

describe('normaliseTags', () => {
  it('trims, drops the #, lower-cases and removes repeats', () => {
    expect(normaliseTags([' #Run ', 'run', 'Fun'])).toEqual(['run', 'fun']);
  });
  it('needs at least one', () => {
    expect(() => normaliseTags([])).toThrow(/Please add at least one tag/);
    expect(() => normaliseTags([' ', '#'])).toThrow(/Please add at least one tag/);
  });
});

describe('checkTarget', () => {
  const user = (over: Partial<KnownUserRecord>): KnownUserRecord => ({
    id: 'u',
    username: 'u',
    email: 'u@example.com',
    challengeable: true,
    minimumChallengeCents: null,
    birthday: new Date('1990-01-01'),
    banned: false,
    deletedAt: null,
    ...over,
  });
  const owner = user({ id: 'owner' });

  it('refuses yourself, an unchallengeable or banned user, and a reward below the minimum', () => {
    expect(() => checkTarget(owner, owner, 500)).toThrow(refusal('owner_equals_challenged_user'));
    expect(() => checkTarget(owner, user({ challengeable: false }), 500)).toThrow(
      refusal('user_not_challengeable'),
    );
    expect(() => checkTarget(owner, user({ banned: true }), 500)).toThrow(
      refusal('user_not_challengeable'),
    );
    expect(() => checkTarget(owner, user({ minimumChallengeCents: 501 }), 500)).toThrow(
      refusal('minimal_challenge_value_invalid'),
    );
    // Spec section 5: only for amounts above the user's minimum, so not the minimum itself.
    expect(() => checkTarget(owner, user({ minimumChallengeCents: 500 }), 500)).toThrow(
      refusal('minimal_challenge_value_invalid'),
    );
    expect(() => checkTarget(owner, user({ minimumChallengeCents: 500 }), 501)).not.toThrow();
  });
});

describe('isAdult', () => {
  it('is 18 from the birthday on, and unknown counts as not adult', () => {
    const birthday = new Date('2012-06-15T00:00:00.000Z');
    expect(isAdult({ birthday }, new Date('2030-06-14T23:00:00.000Z'))).toBe(false);
    expect(isAdult({ birthday }, new Date('2030-06-15T00:00:00.000Z'))).toBe(true);
    expect(isAdult({ birthday: null }, new Date('2030-06-15T00:00:00.000Z'))).toBe(false);
  });
});

describe('newSlug', () => {
  it('makes a valid, unique slug from any name', () => {
    for (const name of ['Run 5 km!', 'Crème brûlée', '🎉🎉', 'a'.repeat(300)]) {
      const slug = newSlug(name);
      expect(isValidSlug(slug), slug).toBe(true);
    }
    expect(newSlug('Run 5 km')).toMatch(/^run-5-km-[a-z0-9]{8}$/);
    expect(newSlug('x')).not.toBe(newSlug('x'));
  });
});
