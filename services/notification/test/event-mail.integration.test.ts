import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent } from '@challenge/events';
import {
  deleteTopics,
  eventually,
  graphql,
  startTestService,
  uniqueTopicPrefix,
  waitForCaughtUp,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationApp } from '../src/app.ts';
import { findSentEmails } from '../src/data/sent-emails.ts';
import { verifyPreferencesToken } from '../src/domain/links.ts';
import { ACTIVITY_GROUP, MAIL_GROUP } from '../src/events/consumers.ts';
import {
  TEST_LINKS,
  challengeEvent,
  inbox,
  inTwoWeeks,
  newChallenge,
  newUser,
  notificationBuilder,
  publish,
  uniqueAddress,
  type TestUser,
} from './support.ts';

const topicPrefix = uniqueTopicPrefix();
let service: TestService<NotificationApp>;

beforeAll(async () => {
  service = await startTestService('notification', notificationBuilder(), { topicPrefix });
});
afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

/** Waits until `count` e-mails reached an address, and returns them, newest first. */
const arrived = (address: string, count = 1) =>
  eventually(async () => {
    const messages = await inbox(address);
    expect(messages.length).toBeGreaterThanOrEqual(count);
    return messages;
  });
/** Everything published so far has been handled by the mail consumer. */
const mailHandled = async () => {
  for (const topic of [TOPICS.challenge, TOPICS.wallet, TOPICS.moderation, TOPICS.media]) {
    await waitForCaughtUp(topicPrefix, MAIL_GROUP, topic);
  }
};
const subjects = async (user: { email: string }) =>
  (await inbox(user.email)).map((mail) => mail.subject);

/** An owner writing English and a challenged user writing Dutch, both known to notification. */
async function pair(): Promise<[TestUser, TestUser]> {
  const owner = newUser({ locale: 'en', username: 'alice_owner' });
  const challenged = newUser({ locale: 'nl', username: 'bob_dares' });
  await publish(topicPrefix, owner.event, challenged.event);
  await waitForCaughtUp(topicPrefix, ACTIVITY_GROUP, TOPICS.identity);
  return [owner.user, challenged.user];
}

const created = (challenge: ReturnType<typeof newChallenge>) =>
  challengeEvent('ChallengeCreated', challenge, { visibility: 'public', expiresAt: inTwoWeeks() });

const PREFERENCES = `mutation ($input: UpdateEmailPreferencesInput!) {
  updateEmailPreferences(input: $input) { status { success identifier } }
}`;
const setPreferences = async (user: { id: string }, input: Record<string, boolean>) =>
  expect(
    (await graphql(service.url, PREFERENCES, { input }, { id: user.id })).data
      ?.updateEmailPreferences.status.success,
  ).toBe(true);

describe('a challenge invitation', () => {
  it('reaches the challenged user once, in their language, with the challenge and preferences links', async () => {
    const [owner, challenged] = await pair();
    const challenge = newChallenge(owner, challenged);
    const event = created(challenge);
    await publish(topicPrefix, event, event);

    const [mail, ...more] = await arrived(challenged.email);
    await mailHandled();
    expect(more).toEqual([]);
    expect(await inbox(owner.email)).toEqual([]);
    expect(mail!.subject).toBe('Nieuwe challenge voor jou: Juggle five eggs');
    expect(mail!.text).toContain('Je bent door alice_owner uitgedaagd voor “Juggle five eggs”');
    expect(mail!.text.replace(/\u00a0/g, ' ')).toContain('€ 12,50');
    expect(mail!.text).toContain(
      `Bekijk de challenge: https://challenge.test/challenge/${challenge.slug}/detail`,
    );
    expect(mail!.html).toContain('<html lang="nl">');
    expect(mail!.messageId).toBe(`<${event.id}.${challenged.id}@challenge.local>`);

    // The preferences link in the footer carries a token for the recipient, and nobody else.
    const link = /https:\/\/challenge\.test\/email-preferences\?token=([\w.-]+)/.exec(mail!.text);
    expect(link).not.toBeNull();
    expect(verifyPreferencesToken(TEST_LINKS.secret, link![1]!)).toBe(challenged.id);

    expect(await findSentEmails(service.app.db, event.id)).toEqual([
      expect.objectContaining({
        template: 'challenge-invitation',
        recipient: challenged.email,
        locale: 'nl',
        status: 'sent',
        attempts: 1,
      }),
    ]);
  });

  it('invites an address without an account to sign up, in the inviter’s language', async () => {
    const [owner] = await pair();
    const stranger = uniqueAddress();
    const challenge = newChallenge(owner, { email: stranger });
    await publish(topicPrefix, created(challenge));

    const [mail] = await arrived(stranger);
    expect(mail!.subject).toBe('You have been challenged: Juggle five eggs');
    expect(mail!.text).toContain('You have been challenged by alice_owner');
    expect(mail!.text).toContain(
      `Create your account: https://challenge.test/challenge/${challenge.slug}/detail?modal=login-magic-link`,
    );
    // No account, so no preferences to link to.
    expect(mail!.text).not.toContain('email-preferences');
  });

  it('is not sent when the challenged user turned newChallenge off; the activity entry still is', async () => {
    const [owner, challenged] = await pair();
    await setPreferences(challenged, { newChallenge: false });
    const challenge = newChallenge(owner, challenged);
    await publish(topicPrefix, created(challenge));
    await mailHandled();
    await waitForCaughtUp(topicPrefix, ACTIVITY_GROUP, TOPICS.challenge);

    expect(await inbox(challenged.email)).toEqual([]);
    expect(
      await service.app.db.activityEntry.count({
        where: { userId: challenged.id, challengeId: challenge.challengeId },
      }),
    ).toBe(1);
  });
});

describe('the challenge saga', () => {
  it('tells each party what they must know, in their own language', async () => {
    const [owner, challenged] = await pair();
    const challenge = newChallenge(owner, challenged);
    const other = newChallenge(owner, challenged, { challengeName: 'Bake a cake' });
    const third = newChallenge(owner, challenged, { challengeName: 'Climb a tree' });
    await publish(
      topicPrefix,
      challengeEvent('ChallengeAccepted', challenge, {}),
      challengeEvent('ChallengeVideoUploaded', challenge, { videoId: randomUUID() }),
      challengeEvent('ChallengeLiked', challenge, { likedBy: randomUUID() }),
      challengeEvent('ChallengeCommented', challenge, {
        commentId: randomUUID(),
        commentedBy: owner.id,
      }),
      challengeEvent('ChallengeSentToReferee', challenge, { reason: 'Only four eggs' }),
      challengeEvent('ChallengeCompleted', challenge, { judgedByReferee: true }),
      challengeEvent('ChallengeRefused', other, { reason: 'Too sweet' }),
      challengeEvent('ChallengeExpired', third, {}),
    );
    await arrived(owner.email, 5);
    await arrived(challenged.email, 3);
    await mailHandled();

    expect((await subjects(owner)).sort()).toEqual([
      'A video is waiting for your verdict: Juggle five eggs',
      'Your challenge expired: Climb a tree',
      'Your challenge is completed: Juggle five eggs',
      'Your challenge was accepted: Juggle five eggs',
      'Your challenge was declined: Bake a cake',
    ]);
    expect((await subjects(challenged)).sort()).toEqual([
      'Challenge voltooid: Juggle five eggs',
      'Een challenge is verlopen: Climb a tree',
      'Je video is afgekeurd, een scheidsrechter beslist: Juggle five eggs',
    ]);
    const declined = (await inbox(owner.email)).find((mail) => mail.subject.includes('declined'));
    expect(declined!.text).toContain('Their reason: Too sweet');
    expect(declined!.text).toContain('declined by bob_dares');
  });

  it('respects each preference separately, and the defaults when none is set', async () => {
    const [owner, challenged] = await pair();
    await setPreferences(owner, { updateChallenge: false });
    await setPreferences(challenged, { completedChallenge: false, updateChallenge: true });
    const challenge = newChallenge(owner, challenged);
    await publish(
      topicPrefix,
      challengeEvent('ChallengeAccepted', challenge, {}),
      challengeEvent('ChallengeFailed', challenge, { comment: 'Eggs dropped' }),
      challengeEvent('ChallengeCancelled', newChallenge(owner, challenged), {}),
    );
    await arrived(owner.email);
    await arrived(challenged.email);
    await mailHandled();
    // Owner: accepted is an update (off); failed is an outcome (default on).
    expect(await subjects(owner)).toEqual(['Your challenge failed: Juggle five eggs']);
    // Challenged: the outcome is off; the cancellation is an update (on).
    expect(await subjects(challenged)).toEqual(['Een challenge is geannuleerd: Juggle five eggs']);
  });

  it('waits for a recipient that identity announces late, then sends once', async () => {
    const owner = newUser({ locale: 'nl' });
    const challenged = newUser();
    const challenge = newChallenge(owner.user, challenged.user);
    await publish(topicPrefix, challengeEvent('ChallengeAccepted', challenge, {}));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await publish(topicPrefix, owner.event, challenged.event);

    const [mail, ...more] = await arrived(owner.user.email);
    await mailHandled();
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Je challenge is geaccepteerd: Juggle five eggs');
  });

  it('sends nothing to a deleted account', async () => {
    const [owner, challenged] = await pair();
    await publish(
      topicPrefix,
      newEvent('UserDeleted', { aggregateId: owner.id, actorId: null, data: { userId: owner.id } }),
    );
    await waitForCaughtUp(topicPrefix, ACTIVITY_GROUP, TOPICS.identity);
    const challenge = newChallenge(owner, challenged);
    const expired = challengeEvent('ChallengeExpired', challenge, {});
    await publish(topicPrefix, expired);
    await arrived(challenged.email);
    await mailHandled();
    expect(await inbox(owner.email)).toEqual([]);
    expect((await findSentEmails(service.app.db, expired.id)).map((row) => row.template)).toEqual([
      'challenge-expired-challenged',
    ]);
  });
});

describe('service messages', () => {
  it('tell a user their payout went out, and a reporter the outcome, whatever the preferences', async () => {
    const [user, reporter] = await pair();
    await setPreferences(user, {
      newChallenge: false,
      updateChallenge: false,
      completedChallenge: false,
      marketing: false,
    });
    const payout = newEvent('PayoutCompleted', {
      aggregateId: randomUUID(),
      actorId: randomUUID(),
      data: { payoutId: randomUUID(), userId: user.id, amountCents: 123456 },
    });
    const report = newEvent('ReportResolved', {
      aggregateId: randomUUID(),
      actorId: randomUUID(),
      data: {
        reportId: randomUUID(),
        reporterId: reporter.id,
        entityType: 'Challenge',
        entityId: randomUUID(),
        outcome: 'taken_offline',
      },
    });
    await publish(topicPrefix, payout, payout, report);

    const [paid, ...more] = await arrived(user.email);
    expect(paid!.subject).toBe('Your payout of €1,234.56 is on its way');
    expect(paid!.text).toContain('Open your wallet: https://challenge.test/wallet');
    expect(paid!.text).not.toContain('email-preferences');
    const [resolved] = await arrived(reporter.email);
    expect(resolved!.subject).toBe('Je melding is afgehandeld');
    expect(resolved!.text).toContain('Deze overtrad onze regels en is offline gehaald.');
    // To the reporter's own list of reports, where this one now shows its outcome.
    expect(resolved!.text).toContain(
      'Bekijk je meldingen: https://challenge.test/settings/my-reports',
    );
    await mailHandled();
    expect(more).toEqual([]);
    expect(await inbox(user.email)).toHaveLength(1);
  });

  it('tell the account holder at once that the payout bank account was changed', async () => {
    const [user] = await pair();
    const changed = newEvent('PaymentAccountChanged', {
      aggregateId: user.id,
      actorId: user.id,
      data: {
        userId: user.id,
        ibanEnding: '3000',
        previousIbanEnding: '4300',
        changedAt: '2026-11-23T10:15:00.000Z',
      },
    });
    await publish(topicPrefix, changed, changed);
    const [notice, ...more] = await arrived(user.email);
    expect(notice!.subject).toBe('Your payout bank account was changed');
    expect(notice!.text).toContain('from the account ending in 4300 to the account ending in 3000');
    expect(notice!.text).toContain('https://challenge.test/settings/edit-payments');
    await mailHandled();
    expect(more).toEqual([]);
  });

  it('tell an uploader, in their language, once, that their proof video could not be processed', async () => {
    const [owner, uploader] = await pair();
    const failed = (reason: 'invalid_video' | 'processing_failed', uploadedBy: string) =>
      newEvent('VideoProcessingFailed', {
        aggregateId: randomUUID(),
        actorId: uploadedBy,
        data: { videoId: randomUUID(), challengeId: randomUUID(), uploadedBy, reason },
      });
    const unreadable = failed('invalid_video', uploader.id);
    await publish(topicPrefix, unreadable, unreadable, failed('processing_failed', owner.id));

    const [dutch, ...more] = await arrived(uploader.email);
    expect(dutch!.subject).toBe('Je video kon niet worden verwerkt');
    expect(dutch!.text).toContain('We konden je video niet afspelen');
    expect(dutch!.text).toContain('https://challenge.test/');
    const [english] = await arrived(owner.email);
    expect(english!.subject).toBe('Your video could not be processed');
    expect(english!.text).toContain('Something went wrong on our side');
    await waitForCaughtUp(topicPrefix, MAIL_GROUP, TOPICS.media);
    expect(more).toEqual([]);
  });
});
