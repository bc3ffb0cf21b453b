import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { activityEntries, type ChallengeEvent } from '../src/domain/activity.ts';
import { challengeMailPlan } from '../src/domain/event-mail.ts';
import { wantsEmail, UNSET_PREFERENCES } from '../src/domain/preferences.ts';
import { challengeEvent, inTwoWeeks, newChallenge } from './support.ts';

const owner = { id: randomUUID(), email: 'owner@example.test' };
const challenged = { id: randomUUID(), email: 'challenged@example.test' };
const fan = randomUUID();
const challenge = newChallenge(owner, challenged);
const invite = newChallenge(owner, { email: 'stranger@example.test' });

/** Every event of the saga for one challenge, by name. */
const events = (c = challenge) => ({
  created: challengeEvent('ChallengeCreated', c, { visibility: 'public', expiresAt: inTwoWeeks() }),
  accepted: challengeEvent('ChallengeAccepted', c, {}),
  refused: challengeEvent('ChallengeRefused', c, { reason: 'Too dangerous' }),
  uploaded: challengeEvent('ChallengeVideoUploaded', c, { videoId: randomUUID() }),
  referee: challengeEvent('ChallengeSentToReferee', c, { reason: 'Only four eggs' }),
  completedByOwner: challengeEvent('ChallengeCompleted', c, { judgedByReferee: false }),
  completedByReferee: challengeEvent('ChallengeCompleted', c, { judgedByReferee: true }),
  failed: challengeEvent('ChallengeFailed', c, { comment: 'Eggs dropped' }),
  cancelled: challengeEvent('ChallengeCancelled', c, {}),
  expired: challengeEvent('ChallengeExpired', c, {}),
  likedByFan: challengeEvent('ChallengeLiked', c, { likedBy: fan }),
  likedByOwner: challengeEvent('ChallengeLiked', c, { likedBy: owner.id }),
  commentedByChallenged: challengeEvent('ChallengeCommented', c, {
    commentId: randomUUID(),
    commentedBy: challenged.id,
  }),
});

/** Entries as [whose log, type, other party]. */
const entries = (event: ChallengeEvent) =>
  activityEntries(event).map((entry) => [entry.userId, entry.type, entry.otherUserId]);

describe('who gets which activity entry', () => {
  const e = events();
  it.each([
    ['created', e.created, [[challenged.id, 'invited', owner.id]]],
    ['accepted', e.accepted, [[owner.id, 'accepted', challenged.id]]],
    ['refused', e.refused, [[owner.id, 'refused', challenged.id]]],
    ['uploaded', e.uploaded, [[owner.id, 'video_uploaded', challenged.id]]],
    ['sent to referee', e.referee, [[challenged.id, 'referee', owner.id]]],
    ['completed by the owner', e.completedByOwner, [[challenged.id, 'completed', owner.id]]],
    [
      'completed by a referee',
      e.completedByReferee,
      [
        [challenged.id, 'completed', owner.id],
        [owner.id, 'completed', challenged.id],
      ],
    ],
    [
      'failed',
      e.failed,
      [
        [owner.id, 'failed', challenged.id],
        [challenged.id, 'failed', owner.id],
      ],
    ],
    [
      'expired',
      e.expired,
      [
        [owner.id, 'expired', challenged.id],
        [challenged.id, 'expired', owner.id],
      ],
    ],
    [
      'liked by someone else',
      e.likedByFan,
      [
        [owner.id, 'liked', fan],
        [challenged.id, 'liked', fan],
      ],
    ],
    ['liked by the owner', e.likedByOwner, [[challenged.id, 'liked', owner.id]]],
    [
      'commented by the challenged',
      e.commentedByChallenged,
      [[owner.id, 'commented', challenged.id]],
    ],
    ['cancelled', e.cancelled, []],
  ] as const)('%s', (_name, event, expected) => {
    expect(entries(event)).toEqual(expected);
  });

  it('carry the challenge as the event described it, and the event time', () => {
    const [entry] = activityEntries(e.accepted);
    expect(entry).toEqual({
      eventId: e.accepted.id,
      userId: owner.id,
      type: 'accepted',
      challengeId: challenge.challengeId,
      slug: challenge.slug,
      challengeName: 'Juggle five eggs',
      rewardCents: 1250,
      otherUserId: challenged.id,
      occurredAt: new Date(e.accepted.occurredAt),
    });
  });

  it('give an invitee without an account nothing, and the owner no other party', () => {
    const i = events(invite);
    expect(entries(i.created)).toEqual([]);
    expect(entries(i.expired)).toEqual([[owner.id, 'expired', null]]);
  });
});

/** The plan as [recipient, template, preference]. */
const plan = (event: ChallengeEvent) =>
  challengeMailPlan(event).map((mail) =>
    'address' in mail
      ? [mail.address, mail.template, null]
      : [mail.userId, mail.template, mail.topic],
  );

describe('who gets which e-mail', () => {
  const e = events();
  it.each([
    ['created', e.created, [[challenged.id, 'challenge-invitation', 'newChallenge']]],
    ['accepted', e.accepted, [[owner.id, 'challenge-accepted', 'updateChallenge']]],
    ['refused', e.refused, [[owner.id, 'challenge-refused', 'updateChallenge']]],
    ['uploaded', e.uploaded, [[owner.id, 'challenge-video-uploaded', 'updateChallenge']]],
    [
      'sent to referee',
      e.referee,
      [[challenged.id, 'challenge-sent-to-referee', 'updateChallenge']],
    ],
    [
      'completed by the owner',
      e.completedByOwner,
      [[challenged.id, 'challenge-completed-challenged', 'completedChallenge']],
    ],
    [
      'completed by a referee',
      e.completedByReferee,
      [
        [challenged.id, 'challenge-completed-challenged', 'completedChallenge'],
        [owner.id, 'challenge-completed-owner', 'completedChallenge'],
      ],
    ],
    [
      'failed',
      e.failed,
      [
        [owner.id, 'challenge-failed-owner', 'completedChallenge'],
        [challenged.id, 'challenge-failed-challenged', 'completedChallenge'],
      ],
    ],
    [
      'expired',
      e.expired,
      [
        [owner.id, 'challenge-expired-owner', 'updateChallenge'],
        [challenged.id, 'challenge-expired-challenged', 'updateChallenge'],
      ],
    ],
    ['cancelled', e.cancelled, [[challenged.id, 'challenge-cancelled', 'updateChallenge']]],
    ['liked', e.likedByFan, []],
    ['commented', e.commentedByChallenged, []],
  ] as const)('%s', (_name, event, expected) => {
    expect(plan(event)).toEqual(expected);
  });

  it('invites an address without an account to sign up, whatever any preference says', () => {
    const i = events(invite);
    expect(plan(i.created)).toEqual([
      ['stranger@example.test', 'challenge-invitation-signup', null],
    ]);
    expect(plan(i.expired)).toEqual([[owner.id, 'challenge-expired-owner', 'updateChallenge']]);
    expect(plan(i.cancelled)).toEqual([]);
  });
});

describe('preference defaults', () => {
  it('mail about challenges is on and marketing off until the user chooses', () => {
    expect(wantsEmail(null, 'newChallenge')).toBe(true);
    expect(wantsEmail(UNSET_PREFERENCES, 'updateChallenge')).toBe(true);
    expect(wantsEmail(UNSET_PREFERENCES, 'completedChallenge')).toBe(true);
    expect(wantsEmail(UNSET_PREFERENCES, 'marketing')).toBe(false);
  });

  it('a choice made wins over the default', () => {
    const chosen = { ...UNSET_PREFERENCES, updateChallenge: false, marketing: true };
    expect(wantsEmail(chosen, 'updateChallenge')).toBe(false);
    expect(wantsEmail(chosen, 'marketing')).toBe(true);
    expect(wantsEmail(chosen, 'newChallenge')).toBe(true);
  });
});
