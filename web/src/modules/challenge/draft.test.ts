import { describe, expect, it } from 'vitest';
import {
  DRAFT_MAX_AGE_MS,
  defaultDraft,
  duplicateDraft,
  parseDraft,
  reasonProblem,
  step1Problems,
  step2Problems,
  toCreateInput,
} from './draft';

const keys = (problems: { field: string; key: string }[]) =>
  problems.map((problem) => `${problem.field}:${problem.key}`);

describe('the create-challenge draft', () => {
  it("starts with the spec's defaults", () => {
    const draft = defaultDraft(1000);
    expect(draft).toMatchObject({
      name: '',
      description: '',
      amount: 5,
      expirationTimeWeeks: 2,
      visibility: 'public',
      challengedUsername: '',
      challengedUserEmailsString: '',
      timestamp: 1000,
      acceptCredit: false,
    });
  });

  it('reads a stored draft field by field, and forgets an old or broken one', () => {
    const now = 10 * DRAFT_MAX_AGE_MS;
    const stored = JSON.stringify({ ...defaultDraft(now - 1000), name: 'Juggle', amount: 'x' });
    expect(parseDraft(stored, now)).toMatchObject({ name: 'Juggle', amount: 5 });
    const old = JSON.stringify({ ...defaultDraft(now - DRAFT_MAX_AGE_MS - 1), name: 'Juggle' });
    expect(parseDraft(old, now).name).toBe('');
    expect(parseDraft('{not json', now).name).toBe('');
  });

  it('step 1 needs a target, a title and a description of 3 to 300 characters', () => {
    const draft = defaultDraft();
    expect(keys(step1Problems(draft))).toEqual([
      'target:usernameRequired',
      'name:titleRequired',
      'description:descriptionRequired',
    ]);
    const filled = {
      ...draft,
      challengedUsername: 'bob',
      name: 'ab',
      description: 'x'.repeat(301),
    };
    expect(keys(step1Problems(filled))).toEqual(['name:minLength', 'description:maxLength']);
    // Characters as a person counts them: 300 emoji are 300 characters.
    const emoji = { ...filled, name: 'abc', description: '🎉'.repeat(300) };
    expect(step1Problems(emoji)).toEqual([]);
    expect(keys(step1Problems(emoji, { username: 'BOB' }))).toEqual(['target:yourself']);
  });

  it('step 1 checks the e-mail addresses: valid, each once', () => {
    const base = { ...defaultDraft(), target: 'email' as const, name: 'abc', description: 'abc' };
    expect(keys(step1Problems({ ...base, challengedUserEmailsString: 'nope, also' }))).toEqual([
      'target:noValidEmails',
    ]);
    expect(
      keys(step1Problems({ ...base, challengedUserEmailsString: 'a@example.com, A@Example.com' })),
    ).toEqual(['target:duplicateEmail']);
    expect(
      step1Problems({ ...base, challengedUserEmailsString: 'a@example.com, b@example.com' }),
    ).toEqual([]);
  });

  it('step 2 needs an amount of at least 0.10, 1 to 9 weeks or a date, a tag and the credit', () => {
    const now = new Date(2026, 0, 10, 12);
    const draft = defaultDraft();
    expect(keys(step2Problems(draft, now))).toEqual([
      'tags:tagsRequired',
      'acceptCredit:acceptCredit',
    ]);
    const ok = { ...draft, tags: ['sport'], acceptCredit: true };
    expect(step2Problems(ok, now)).toEqual([]);
    expect(keys(step2Problems({ ...ok, amount: 0.09 }, now))).toEqual(['amount:amountTooLow']);
    expect(keys(step2Problems({ ...ok, expirationTimeWeeks: 10 }, now))).toEqual([
      'expiration:weeksRange',
    ]);
    expect(keys(step2Problems({ ...ok, expirationDate: '2026-01-09' }, now))).toEqual([
      'expiration:dateInPast',
    ]);
    expect(keys(step2Problems({ ...ok, expirationDate: '2026-01-14' }, now))).toEqual([
      'expiration:dateTooSoon',
    ]);
    expect(keys(step2Problems({ ...ok, expirationDate: '2026-03-11' }, now))).toEqual([
      'expiration:dateTooLate',
    ]);
    expect(step2Problems({ ...ok, expirationDate: '2026-02-20' }, now)).toEqual([]);
  });

  // Issue 22 (spec audit): the minimum is the server's configured one, once the client knows it.
  it("step 2 holds the reward to the server's configured minimum, and says which", () => {
    const now = new Date(2026, 0, 10, 12);
    const ok = { ...defaultDraft(), tags: ['sport'], acceptCredit: true, amount: 0.5 };
    expect(step2Problems(ok, now, { rewardMinCents: 100 })).toEqual([
      { field: 'amount', key: 'amountTooLow', values: { minCents: 100 } },
    ]);
    expect(step2Problems({ ...ok, amount: 1 }, now, { rewardMinCents: 100 })).toEqual([]);
    expect(step2Problems(ok, now)).toEqual([]);
  });

  it('sends the reward as integer cents and one target', () => {
    const draft = {
      ...defaultDraft(),
      name: ' Juggle ',
      description: 'Three balls',
      amount: 12.34,
      challengedUsername: '@bob',
      tags: ['sport'],
      acceptCredit: true,
    };
    expect(toCreateInput(draft)).toEqual({
      challengeName: 'Juggle',
      challengeDescription: 'Three balls',
      challengeReward: 1234,
      tags: ['sport'],
      visibility: 'public',
      challengeType: 'solo',
      expirationTimeWeeks: 2,
      acceptCredit: true,
      challengedUsername: 'bob',
    });
    const byEmail = toCreateInput({
      ...draft,
      target: 'email',
      challengedUserEmailsString: 'a@example.com ,b@example.com',
    });
    expect(byEmail).toMatchObject({ challengedUserEmailsString: 'a@example.com,b@example.com' });
    expect('challengedUsername' in byEmail).toBe(false);
  });

  it('a reason is required and has at most 800 characters', () => {
    expect(reasonProblem('  ')?.key).toBe('reasonRequired');
    expect(reasonProblem('😀'.repeat(800))).toBeNull();
    expect(reasonProblem('a'.repeat(801))?.key).toBe('maxLength');
  });

  it('duplicates a challenge into a new draft without its target', () => {
    const draft = duplicateDraft({
      challengeName: 'Juggle',
      challengeDescription: 'Three balls',
      challengeReward: 750,
      visibility: 'private',
      expirationTimeWeeks: 3,
      tags: [{ name: 'sport' }],
    });
    expect(draft).toMatchObject({
      name: 'Juggle',
      amount: 7.5,
      visibility: 'private',
      expirationTimeWeeks: 3,
      tags: ['sport'],
      challengedUsername: '',
      acceptCredit: false,
    });
  });
});
