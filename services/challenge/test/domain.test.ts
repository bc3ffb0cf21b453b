import { describe, expect, it } from 'vitest';
import { AppError } from '@challenge/kit';
import { canView, toChallengeView } from '../src/domain/challenges.ts';
import { isValidSlug, parseSlug, SLUG_MAX_LENGTH } from '../src/domain/slugs.ts';
import type { ChallengeRecord } from '../src/data/challenges.ts';

describe('slugs', () => {
  it.each(['run', 'run-5-km', '5k', 'a-b-c-1-2-3'])('accepts %s', (slug) => {
    expect(isValidSlug(slug)).toBe(true);
    expect(parseSlug(slug)).toBe(slug);
  });

  it.each(['', 'Run', 'run_5', 'run 5', '-run', 'run-', 'run--5', 'rén', 'run/5', ' run'])(
    'refuses %j',
    (slug) => {
      expect(isValidSlug(slug)).toBe(false);
      expect(() => parseSlug(slug)).toThrow(
        expect.objectContaining({ identifier: 'invalid_slug' }),
      );
    },
  );

  it(`allows at most ${SLUG_MAX_LENGTH} characters`, () => {
    expect(isValidSlug('a'.repeat(SLUG_MAX_LENGTH))).toBe(true);
    expect(isValidSlug('a'.repeat(SLUG_MAX_LENGTH + 1))).toBe(false);
    expect(() => parseSlug('a'.repeat(SLUG_MAX_LENGTH + 1))).toThrow(AppError);
  });
});

describe('canView', () => {
  const owner = '00000000-0000-4000-8000-000000000001';
  const challenged = '00000000-0000-4000-8000-000000000002';
  const stranger = '00000000-0000-4000-8000-000000000003';

  it('shows a public challenge to everyone, visitors included', () => {
    const challenge = {
      visibility: 'public',
      ownerId: owner,
      challengedUserId: challenged,
    } as const;
    for (const viewer of [null, owner, challenged, stranger])
      expect(canView(challenge, viewer)).toBe(true);
  });

  it('shows a private challenge only to its owner and challenged user', () => {
    const challenge = {
      visibility: 'private',
      ownerId: owner,
      challengedUserId: challenged,
    } as const;
    expect(canView(challenge, owner)).toBe(true);
    expect(canView(challenge, challenged)).toBe(true);
    expect(canView(challenge, stranger)).toBe(false);
    expect(canView(challenge, null)).toBe(false);
  });

  it('does not let a visitor match a private challenge that has no challenged user yet', () => {
    const challenge = { visibility: 'private', ownerId: owner, challengedUserId: null } as const;
    expect(canView(challenge, null)).toBe(false);
    expect(canView(challenge, owner)).toBe(true);
  });

  it('shows a challenge staff took offline or removed to staff only, not even to its parties', () => {
    for (const moderation of ['offline', 'removed'] as const) {
      const challenge = {
        visibility: 'public',
        ownerId: owner,
        challengedUserId: null,
        moderation,
      } as const;
      expect(canView(challenge, null)).toBe(false);
      expect(canView(challenge, owner)).toBe(false);
      expect(canView(challenge, null, true)).toBe(true);
    }
  });
});

describe('toChallengeView', () => {
  const record: ChallengeRecord = {
    id: '00000000-0000-4000-8000-00000000000a',
    slug: 'run-5-km',
    ownerId: '00000000-0000-4000-8000-000000000001',
    challengedUserId: null,
    challengedEmail: 'friend@example.com',
    name: 'Run 5 km',
    description: 'Fast.',
    rewardCents: 2_147_483_647n,
    status: 'open',
    visibility: 'public',
    expirationDate: new Date('2030-01-15T12:00:00Z'),
    expirationTimeWeeks: 3,
    challengeType: 'solo',
    tags: ['running'],
    proofPhrase: 'blue otter 42',
    reason: null,
    judgedByReferee: false,
    challengeFailedComment: null,
    acceptedAt: null,
    reviewStartedAt: null,
    moderation: null,
    offlineSince: null,
    pendingVideoId: null,
    pendingVideoAt: null,
    createdAt: new Date('2030-01-01T00:00:00Z'),
  };

  it('maps the record to the public names, with cents as a number and the date as ISO 8601', () => {
    expect(toChallengeView(record)).toEqual({
      id: record.id,
      slug: 'run-5-km',
      challengeName: 'Run 5 km',
      challengeDescription: 'Fast.',
      challengeReward: 2_147_483_647,
      status: 'open',
      visibility: 'public',
      expirationDate: '2030-01-15T12:00:00.000Z',
      expirationTimeWeeks: 3,
      ownerId: record.ownerId,
      challengedUserId: null,
      challengeType: 'solo',
      tags: [{ name: 'running' }],
      judgedByReferee: false,
      challengeFailedComment: null,
      reason: null,
      // Neither the invited address nor the proof phrase goes to a stranger.
      challengedEmail: null,
      proofPhrase: null,
      acceptedAt: null,
      judgingDeadline: null,
      createdAt: '2030-01-01T00:00:00.000Z',
    });
    expect(toChallengeView(record, { id: record.ownerId, staff: false })).toMatchObject({
      challengedEmail: 'friend@example.com',
      proofPhrase: 'blue otter 42',
    });
  });

  it('refuses a reward that a GraphQL Int cannot carry rather than sending a wrong amount', () => {
    expect(() => toChallengeView({ ...record, rewardCents: 2_147_483_648n })).toThrow(/Int range/);
  });
});
