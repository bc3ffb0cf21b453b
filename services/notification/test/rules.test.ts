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
    // An outcome: the approving owner's log shows it too (issue 22, point 14).
    [
      'completed by the owner',
      e.completedByOwner,
      [
        [challenged.id, 'completed', owner.id],
        [owner.id, 'completed', challenged.id],
      ],
    ],
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

describe('a duel (each party judges the other’s video)', () => {
  const duel = newChallenge(owner, challenged, { challengeType: 'duel' });
  const uploadBy = (performerId: string) =>
    challengeEvent('ChallengeVideoUploaded', duel, { videoId: randomUUID(), performerId });
  const rejected = (performerId: string) =>
    challengeEvent('ChallengeSentToReferee', duel, { reason: 'Only four eggs', performerId });
  const side = (performerId: string, outcome: 'completed' | 'failed', judgedByReferee: boolean) =>
    challengeEvent('DuelSideJudged', duel, { performerId, outcome, judgedByReferee });
  const ended = (o: 'completed' | 'failed', c: 'completed' | 'failed') =>
    o === 'failed' && c === 'failed'
      ? challengeEvent('ChallengeFailed', duel, {
          comment: null,
          duelOutcome: { owner: o, challenged: c },
        })
      : challengeEvent('ChallengeCompleted', duel, {
          judgedByReferee: false,
          duelOutcome: { owner: o, challenged: c },
        });

  it.each([
    [
      'the owner’s video, to the challenged user',
      uploadBy(owner.id),
      [[challenged.id, 'video_uploaded', owner.id]],
    ],
    [
      'the challenged user’s video, to the owner',
      uploadBy(challenged.id),
      [[owner.id, 'video_uploaded', challenged.id]],
    ],
    [
      'the owner’s video rejected, to the owner',
      rejected(owner.id),
      [[owner.id, 'referee', challenged.id]],
    ],
    [
      'a side approved by its judge, to its performer',
      side(owner.id, 'completed', false),
      [[owner.id, 'completed', challenged.id]],
    ],
    [
      'a side a referee decided, to its performer and its judge',
      side(challenged.id, 'failed', true),
      [
        [challenged.id, 'failed', owner.id],
        [owner.id, 'failed', challenged.id],
      ],
    ],
    [
      'the end, to both by their own side',
      ended('failed', 'completed'),
      [
        [owner.id, 'failed', challenged.id],
        [challenged.id, 'completed', owner.id],
      ],
    ],
    [
      'both failed, to both',
      ended('failed', 'failed'),
      [
        [owner.id, 'failed', challenged.id],
        [challenged.id, 'failed', owner.id],
      ],
    ],
  ] as const)('activity: %s', (_name, event, expected) => {
    expect(entries(event)).toEqual(expected);
  });

  it.each([
    [
      'invitation',
      challengeEvent('ChallengeCreated', duel, { visibility: 'public', expiresAt: inTwoWeeks() }),
      [[challenged.id, 'duel-invitation', 'newChallenge']],
    ],
    [
      'accepted',
      challengeEvent('ChallengeAccepted', duel, {}),
      [[owner.id, 'duel-accepted', 'updateChallenge']],
    ],
    [
      'the owner’s video',
      uploadBy(owner.id),
      [[challenged.id, 'duel-video-uploaded', 'updateChallenge']],
    ],
    [
      'the challenged user’s video',
      uploadBy(challenged.id),
      [[owner.id, 'duel-video-uploaded', 'updateChallenge']],
    ],
    [
      'a rejection',
      rejected(challenged.id),
      [[challenged.id, 'duel-sent-to-referee', 'updateChallenge']],
    ],
    [
      'a side approved',
      side(owner.id, 'completed', false),
      [[owner.id, 'duel-side-completed', 'updateChallenge']],
    ],
    [
      'a side out of time',
      side(owner.id, 'failed', false),
      [[owner.id, 'duel-side-expired', 'updateChallenge']],
    ],
    [
      'a side a referee approved',
      side(owner.id, 'completed', true),
      [
        [owner.id, 'duel-side-completed', 'updateChallenge'],
        [challenged.id, 'duel-side-completed-judge', 'updateChallenge'],
      ],
    ],
    [
      'a side a referee failed',
      side(challenged.id, 'failed', true),
      [
        [challenged.id, 'duel-side-failed', 'updateChallenge'],
        [owner.id, 'duel-side-failed-judge', 'updateChallenge'],
      ],
    ],
    [
      'won by the challenged user',
      ended('failed', 'completed'),
      [
        [owner.id, 'duel-lost', 'completedChallenge'],
        [challenged.id, 'duel-won', 'completedChallenge'],
      ],
    ],
    [
      'won by the owner',
      ended('completed', 'failed'),
      [
        [owner.id, 'duel-won', 'completedChallenge'],
        [challenged.id, 'duel-lost', 'completedChallenge'],
      ],
    ],
    [
      'both completed',
      ended('completed', 'completed'),
      [
        [owner.id, 'duel-completed-both', 'completedChallenge'],
        [challenged.id, 'duel-completed-both', 'completedChallenge'],
      ],
    ],
    [
      'both failed',
      ended('failed', 'failed'),
      [
        [owner.id, 'duel-failed-both', 'completedChallenge'],
        [challenged.id, 'duel-failed-both', 'completedChallenge'],
      ],
    ],
    [
      'expired',
      challengeEvent('ChallengeExpired', duel, {}),
      [
        [owner.id, 'duel-expired-owner', 'updateChallenge'],
        [challenged.id, 'duel-expired-challenged', 'updateChallenge'],
      ],
    ],
  ] as const)('e-mail: %s', (_name, event, expected) => {
    expect(plan(event)).toEqual(expected);
  });

  it('leaves a solo challenge as it was, whether or not its events name the type', () => {
    const solo = newChallenge(owner, challenged, { challengeType: 'solo' });
    const upload = challengeEvent('ChallengeVideoUploaded', solo, {
      videoId: randomUUID(),
      performerId: null,
    });
    expect(plan(upload)).toEqual([[owner.id, 'challenge-video-uploaded', 'updateChallenge']]);
    expect(entries(upload)).toEqual([[owner.id, 'video_uploaded', challenged.id]]);
  });
});
