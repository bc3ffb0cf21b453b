import { randomUUID } from 'node:crypto';
import { TOPICS } from '@challenge/events';
import {
  deleteTopics,
  eventually,
  startTestService,
  uniqueTopicPrefix,
  waitForCaughtUp,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationApp } from '../src/app.ts';
import { findSentEmails } from '../src/data/sent-emails.ts';
import { ACTIVITY_GROUP, MAIL_GROUP } from '../src/events/consumers.ts';
import {
  challengeEvent,
  inbox,
  inTwoWeeks,
  newChallenge,
  newUser,
  notificationBuilder,
  publish,
  type TestUser,
} from './support.ts';

/**
 * Duels (docs/adr/0032, 0063): each party performs and judges the OTHER's video, so every duel
 * event goes to the party it concerns, with a duel's text; the end tells both who won the stakes.
 * Every event is delivered twice, as after a producer retry or a rebalance: one mail, one entry.
 */
const topicPrefix = uniqueTopicPrefix();
let service: TestService<NotificationApp>;

beforeAll(async () => {
  service = await startTestService('notification', notificationBuilder(), { topicPrefix });
});
afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

const arrived = (address: string, count: number) =>
  eventually(async () => {
    const messages = await inbox(address);
    expect(messages.length).toBeGreaterThanOrEqual(count);
    return messages;
  });
const handled = async () => {
  await waitForCaughtUp(topicPrefix, MAIL_GROUP, TOPICS.challenge);
  await waitForCaughtUp(topicPrefix, ACTIVITY_GROUP, TOPICS.challenge);
};
const subjects = async (user: TestUser) =>
  (await inbox(user.email)).map((mail) => mail.subject).sort();
const mailTo = async (user: TestUser, subject: string) => {
  const mail = (await inbox(user.email)).find((candidate) => candidate.subject === subject);
  expect(mail, subject).toBeDefined();
  return mail!.text.replace(/\u00a0/g, ' ');
};
/** A user's activity entries for one duel as [type, other party], oldest first. */
const entries = async (user: TestUser, challengeId: string) =>
  (
    await service.app.db.activityEntry.findMany({
      where: { userId: user.id, challengeId },
      orderBy: [{ occurredAt: 'asc' }, { id: 'asc' }],
    })
  ).map((entry) => [entry.type, entry.otherUserId]);

/** An owner writing English and a challenged user writing Dutch, both known to notification. */
async function pair(): Promise<[TestUser, TestUser]> {
  const owner = newUser({ locale: 'en', username: 'alice_owner' });
  const challenged = newUser({ locale: 'nl', username: 'bob_dares' });
  await publish(topicPrefix, owner.event, challenged.event);
  await waitForCaughtUp(topicPrefix, ACTIVITY_GROUP, TOPICS.identity);
  return [owner.user, challenged.user];
}
const duelOf = (owner: TestUser, challenged: TestUser, challengeName = 'Juggle five eggs') =>
  newChallenge(owner, challenged, { challengeType: 'duel', challengeName });
/** Events one second apart, so that the log's order is the saga's. */
const inOrder = <T extends { occurredAt: string }>(events: T[]) =>
  events.map((event, index) => ({
    ...event,
    occurredAt: new Date(Date.UTC(2026, 10, 22, 12, 0, index)).toISOString(),
  }));

describe('a duel', () => {
  it('sends each video to the other party to judge, and the end to both, once each', async () => {
    const [alice, bob] = await pair();
    const duel = duelOf(alice, bob);
    const saga = inOrder([
      challengeEvent('ChallengeCreated', duel, { visibility: 'public', expiresAt: inTwoWeeks() }),
      challengeEvent('ChallengeAccepted', duel, {}, bob.id),
      // Alice's own video: Bob judges it (a solo reading would ask Alice to judge herself).
      challengeEvent(
        'ChallengeVideoUploaded',
        duel,
        { videoId: randomUUID(), performerId: alice.id },
        alice.id,
      ),
      challengeEvent(
        'ChallengeVideoUploaded',
        duel,
        { videoId: randomUUID(), performerId: bob.id },
        bob.id,
      ),
      // Bob rejects Alice's video: Alice hears that a referee decides.
      challengeEvent(
        'ChallengeSentToReferee',
        duel,
        { reason: 'Only four eggs', performerId: alice.id },
        bob.id,
      ),
      // Alice approves Bob's video while hers is with the referee.
      challengeEvent(
        'DuelSideJudged',
        duel,
        { performerId: bob.id, outcome: 'completed', judgedByReferee: false },
        alice.id,
      ),
      // The referee fails Alice's side: Bob completed, Alice failed, Bob wins both stakes.
      challengeEvent(
        'ChallengeCompleted',
        duel,
        { judgedByReferee: true, duelOutcome: { owner: 'failed', challenged: 'completed' } },
        randomUUID(),
      ),
    ]);
    await publish(topicPrefix, ...saga, ...saga);
    await arrived(alice.email, 4);
    await arrived(bob.email, 4);
    await handled();

    expect(await subjects(alice)).toEqual([
      'A video in your duel is waiting for your verdict: Juggle five eggs',
      'You lost the duel: Juggle five eggs',
      'Your duel video was rejected, a referee decides: Juggle five eggs',
      'Your duel was accepted: Juggle five eggs',
    ]);
    expect(await subjects(bob)).toEqual([
      'Een video in je duel wacht op je oordeel: Juggle five eggs',
      'Je bent uitgedaagd voor een duel: Juggle five eggs',
      'Je duelvideo is goedgekeurd: Juggle five eggs',
      'Je hebt het duel gewonnen: Juggle five eggs',
    ]);

    // The texts name the right person and the right money.
    expect(await mailTo(bob, 'Je bent uitgedaagd voor een duel: Juggle five eggs')).toContain(
      'inzet van € 12,50',
    );
    expect(
      await mailTo(alice, 'A video in your duel is waiting for your verdict: Juggle five eggs'),
    ).toContain('bob_dares uploaded their video for your duel “Juggle five eggs”');
    expect(
      await mailTo(bob, 'Een video in je duel wacht op je oordeel: Juggle five eggs'),
    ).toContain('alice_owner heeft de video voor jullie duel “Juggle five eggs” geüpload');
    const rejected = await mailTo(
      alice,
      'Your duel video was rejected, a referee decides: Juggle five eggs',
    );
    expect(rejected).toContain('rejected by bob_dares');
    expect(rejected).toContain('Their reason: Only four eggs');
    const won = await mailTo(bob, 'Je hebt het duel gewonnen: Juggle five eggs');
    expect(won).toContain('€ 25,00');
    const lost = await mailTo(alice, 'You lost the duel: Juggle five eggs');
    expect(lost).toContain('Your stake of €12.50 went to bob_dares');

    expect(await entries(alice, duel.challengeId)).toEqual([
      ['accepted', bob.id],
      ['video_uploaded', bob.id],
      ['referee', bob.id],
      ['failed', bob.id],
    ]);
    expect(await entries(bob, duel.challengeId)).toEqual([
      ['invited', alice.id],
      ['video_uploaded', alice.id],
      ['completed', alice.id],
      ['completed', alice.id],
    ]);
    const ending = saga.at(-1)!;
    expect(
      (await findSentEmails(service.app.db, ending.id)).map((row) => row.template).sort(),
    ).toEqual(['duel-lost', 'duel-won']);
  });

  it('tells the performer how their side was judged, and the judge what a referee decided', async () => {
    const [alice, bob] = await pair();
    const duel = duelOf(alice, bob);
    const late = duelOf(alice, bob, 'Climb a tree');
    const events = [
      // A referee approves Alice's video that Bob had rejected.
      challengeEvent(
        'DuelSideJudged',
        duel,
        { performerId: alice.id, outcome: 'completed', judgedByReferee: true },
        randomUUID(),
      ),
      // A referee fails Bob's video that Alice had rejected.
      challengeEvent(
        'DuelSideJudged',
        duel,
        { performerId: bob.id, outcome: 'failed', judgedByReferee: true },
        randomUUID(),
      ),
      // Bob's time ran out without a video (the scheduler).
      challengeEvent(
        'DuelSideJudged',
        late,
        { performerId: bob.id, outcome: 'failed', judgedByReferee: false },
        null,
      ),
    ];
    await publish(topicPrefix, ...events, ...events);
    await arrived(alice.email, 2);
    await arrived(bob.email, 3);
    await handled();

    expect(await subjects(alice)).toEqual([
      'The referee did not approve the video in your duel: Juggle five eggs',
      'Your duel video was approved: Juggle five eggs',
    ]);
    expect(await subjects(bob)).toEqual([
      'De scheidsrechter heeft de video in je duel goedgekeurd: Juggle five eggs',
      'De scheidsrechter heeft je duelvideo niet goedgekeurd: Juggle five eggs',
      'De tijd voor je duelvideo is om: Climb a tree',
    ]);
    expect(
      await mailTo(alice, 'The referee did not approve the video in your duel: Juggle five eggs'),
    ).toContain('the video of bob_dares');

    expect((await entries(alice, duel.challengeId)).sort()).toEqual([
      ['completed', bob.id],
      ['failed', bob.id],
    ]);
    expect((await entries(bob, duel.challengeId)).sort()).toEqual([
      ['completed', alice.id],
      ['failed', alice.id],
    ]);
    expect(await entries(alice, late.challengeId)).toEqual([]);
    expect(await entries(bob, late.challengeId)).toEqual([['failed', alice.id]]);
  });

  it('ends for both: both completed keep their stakes, both failed get theirs back, expiry too', async () => {
    const [alice, bob] = await pair();
    const both = duelOf(alice, bob, 'Bake a cake');
    const neither = duelOf(alice, bob, 'Run a marathon');
    const expired = duelOf(alice, bob, 'Sing in the rain');
    const events = [
      challengeEvent(
        'ChallengeCompleted',
        both,
        { judgedByReferee: false, duelOutcome: { owner: 'completed', challenged: 'completed' } },
        bob.id,
      ),
      challengeEvent(
        'ChallengeFailed',
        neither,
        { comment: null, duelOutcome: { owner: 'failed', challenged: 'failed' } },
        null,
      ),
      challengeEvent('ChallengeExpired', expired, {}, null),
    ];
    await publish(topicPrefix, ...events, ...events);
    await arrived(alice.email, 3);
    await arrived(bob.email, 3);
    await handled();

    expect(await subjects(alice)).toEqual([
      'Duel over, neither side completed: Run a marathon',
      'Duel over, you both completed: Bake a cake',
      'Your duel expired: Sing in the rain',
    ]);
    expect(await subjects(bob)).toEqual([
      'Duel voorbij, geen van beiden heeft het gehaald: Run a marathon',
      'Duel voorbij, jullie hebben het allebei gehaald: Bake a cake',
      'Een duel is verlopen: Sing in the rain',
    ]);
    expect(await mailTo(alice, 'Duel over, you both completed: Bake a cake')).toContain(
      'your stake of €12.50 is back in your wallet',
    );
    expect(await entries(alice, both.challengeId)).toEqual([['completed', bob.id]]);
    expect(await entries(bob, both.challengeId)).toEqual([['completed', alice.id]]);
    expect(await entries(alice, neither.challengeId)).toEqual([['failed', bob.id]]);
    expect(await entries(bob, neither.challengeId)).toEqual([['failed', alice.id]]);
  });
});
