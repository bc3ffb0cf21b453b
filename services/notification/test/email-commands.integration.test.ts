import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent } from '@challenge/events';
import {
  deleteTopics,
  eventually,
  produceRaw,
  startTestService,
  uniqueTopicPrefix,
  waitForCaughtUp,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationApp } from '../src/app.ts';
import { findSentEmail } from '../src/data/sent-emails.ts';
import { sendLoginLinkEmail } from '../src/domain/commands.ts';
import { DeliveryInProgressError } from '../src/domain/deliveries.ts';
import { COMMANDS_GROUP } from '../src/events/consumers.ts';
import { signOptOutToken } from '../src/domain/links.ts';
import {
  TEST_LINKS,
  asMessage,
  inbox,
  loginLinkRequested,
  notificationBuilder,
  passwordResetRequested,
  uniqueAddress,
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

const send = (...events: { aggregateId: string }[]) =>
  produceRaw(topicPrefix, TOPICS.notificationCommands, events.map(asMessage));
const caughtUp = () => waitForCaughtUp(topicPrefix, COMMANDS_GROUP, TOPICS.notificationCommands);
/** Waits for the first mail to an address and returns the whole inbox. */
const arrived = (address: string) =>
  eventually(async () => {
    const messages = await inbox(address);
    expect(messages.length).toBeGreaterThan(0);
    return messages;
  });
/** The whole row as the database stores it, as text. */
const storedRow = async (eventId: string) => {
  const rows = await service.app.db.$queryRaw<{ row: string }[]>`
    SELECT row_to_json(s)::text AS row FROM sent_emails s WHERE event_id = ${eventId}::uuid`;
  return rows.map((r) => r.row);
};

describe('a log-in link command', () => {
  it('sends one e-mail with the code and the link, and records it as sent', async () => {
    const event = loginLinkRequested({ locale: 'en' });
    const { email, code, link } = event.data;
    await send(event);

    const [mail, ...more] = await arrived(email);
    expect(more).toEqual([]);
    expect(mail!.to).toEqual([email]);
    expect(mail!.from).toBe('no-reply@challenge.local');
    expect(mail!.subject).toBe(`Your Challenge log-in code: ${code}`);
    expect(mail!.text).toContain(code);
    expect(mail!.text).toContain(link);
    expect(mail!.text).toContain('Log in to Challenge');
    expect(mail!.html).toContain(code);
    expect(mail!.messageId).toBe(`<${event.id}@challenge.local>`);

    await eventually(async () =>
      expect(await findSentEmail(service.app.db, event.id)).toMatchObject({
        template: 'login-link',
        recipient: email,
        locale: 'en',
        status: 'sent',
        attempts: 1,
        lastError: null,
        sentAt: expect.any(Date),
      }),
    );
  });

  it('is written in Dutch when the locale is nl', async () => {
    const event = loginLinkRequested({ locale: 'nl' });
    await send(event);
    const [mail] = await arrived(event.data.email);
    expect(mail!.subject).toBe(`Je inlogcode voor Challenge: ${event.data.code}`);
    expect(mail!.text).toContain('Vul deze code in het inlogvenster in');
    expect(mail!.text).toContain(event.data.code);
    expect(mail!.text).toContain(event.data.link);
    expect(mail!.html).toContain('<html lang="nl">');
  });

  it('invites an address without an account to complete one (purpose signup)', async () => {
    const event = loginLinkRequested({ locale: 'nl', purpose: 'signup' });
    await send(event);
    const [mail] = await arrived(event.data.email);
    expect(mail!.subject).toBe(`Maak je Challenge-account af: code ${event.data.code}`);
    expect(mail!.text).toContain('Account afmaken: ' + event.data.link);
    await eventually(async () =>
      expect((await findSentEmail(service.app.db, event.id))?.template).toBe('signup-link'),
    );
  });

  it('delivered three times still sends one e-mail and keeps one row', async () => {
    const event = loginLinkRequested();
    await send(event, event, event);
    await caughtUp();

    expect(await inbox(event.data.email)).toHaveLength(1);
    expect(await storedRow(event.id)).toHaveLength(1);
    expect(await findSentEmail(service.app.db, event.id)).toMatchObject({
      status: 'sent',
      attempts: 1,
    });

    // A later redelivery (a replay, an outbox republish) changes nothing either.
    await send(event);
    await caughtUp();
    expect(await inbox(event.data.email)).toHaveLength(1);
    expect((await findSentEmail(service.app.db, event.id))?.attempts).toBe(1);
  });

  it('sends once when two consumers handle the same command at the same moment', async () => {
    // As after a rebalance: the old and the new owner of the partition both run the handler.
    const event = loginLinkRequested();
    const deps = { db: service.app.db, mailer: service.app.mailer, logger: service.runtime.logger };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () => sendLoginLinkEmail(deps, event)),
    );

    const sent = outcomes.filter((o) => o.status === 'fulfilled' && o.value === 'sent');
    expect(sent).toHaveLength(1);
    for (const other of outcomes.filter((o) => !sent.includes(o))) {
      // Either it waited for the lock until the mail was out, or it must retry later.
      if (other.status === 'fulfilled') expect(other.value).toBe('already-sent');
      else expect(other.reason).toBeInstanceOf(DeliveryInProgressError);
    }
    expect(await inbox(event.data.email)).toHaveLength(1);
    expect(await findSentEmail(service.app.db, event.id)).toMatchObject({
      status: 'sent',
      attempts: 1,
    });
  });

  it('stores the recipient but never the link or the code', async () => {
    const event = loginLinkRequested();
    await send(event);
    await arrived(event.data.email);
    const [row] = await eventually(async () => {
      const rows = await storedRow(event.id);
      expect(rows[0]).toContain('"status":"sent"');
      return rows;
    });
    expect(row).toContain(event.data.email);
    expect(row).not.toContain(event.data.code);
    expect(row).not.toContain(event.data.link);
    expect(row).not.toContain(new URL(event.data.link).searchParams.get('hash'));
  });

  it('is dropped, not sent, when it arrives after its link expired', async () => {
    const event = loginLinkRequested({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    await send(event);
    await caughtUp();
    expect(await inbox(event.data.email)).toEqual([]);
    expect(await findSentEmail(service.app.db, event.id)).toMatchObject({
      status: 'failed',
      attempts: 0,
      lastError: 'expired before it could be sent',
    });
  });
});

describe('a password reset command', () => {
  it('sends the reset link in English, greeting the user by name', async () => {
    const event = passwordResetRequested({ locale: 'en', username: 'sam_the_runner' });
    await send(event);
    const [mail, ...more] = await arrived(event.data.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Reset your Challenge password');
    expect(mail!.text).toContain('Hi sam_the_runner,');
    expect(mail!.text).toContain(`Choose a new password: ${event.data.link}`);
    expect(mail!.html).toContain('Choose a new password</a>');

    await eventually(async () => {
      const [row] = await storedRow(event.id);
      expect(row).toContain('"template":"password-reset"');
      expect(row).toContain('"status":"sent"');
      expect(row).not.toContain(event.data.link);
    });
  });

  it('is written in Dutch when the locale is nl', async () => {
    const event = passwordResetRequested({ locale: 'nl' });
    await send(event);
    const [mail] = await arrived(event.data.email);
    expect(mail!.subject).toBe('Stel je wachtwoord voor Challenge opnieuw in');
    expect(mail!.text).toContain('je wachtwoord blijft zoals het is');
  });
});

describe('a challenge share command (shareChallengeLink)', () => {
  it('sends the invitation in the asked language, with the link built from our own origin', async () => {
    const email = `share-${randomUUID().slice(0, 8)}@example.test`;
    const challengeId = randomUUID();
    const event = newEvent('ChallengeShareRequested', {
      aggregateId: challengeId,
      actorId: randomUUID(),
      data: {
        email,
        locale: 'nl',
        challengeName: 'Jongleer met drie sinaasappels',
        sharedBy: 'sam',
        slug: 'jongleer-met-drie-sinaasappels',
      },
    });
    await send(event);
    const [mail, ...more] = await arrived(email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(
      'sam wil je een challenge laten zien: Jongleer met drie sinaasappels',
    );
    expect(mail!.text).toContain(
      'https://challenge.test/challenge/jongleer-met-drie-sinaasappels/detail',
    );
    await eventually(async () =>
      expect(await findSentEmail(service.app.db, event.id)).toMatchObject({
        template: 'challenge-share',
        status: 'sent',
      }),
    );
    // How to get no more: the address's own opt-out link.
    expect(mail!.text).toContain(
      `Stop uitnodigingen: https://challenge.test/email-opt-out?token=${signOptOutToken(TEST_LINKS.secret, email)}`,
    );
  });

  it('is not sent to an address that opted out, nor to an account that turned marketing off', async () => {
    const challengeId = randomUUID();
    const share = (email: string) =>
      newEvent('ChallengeShareRequested', {
        aggregateId: challengeId,
        actorId: randomUUID(),
        data: { email, locale: 'en', challengeName: 'Dare', sharedBy: 'sam', slug: 'dare-x' },
      });
    const optedOut = uniqueAddress();
    await service.app.db.invitationOptOut.create({ data: { email: optedOut } });
    const member = { id: randomUUID(), email: uniqueAddress() };
    await service.app.db.user.create({ data: { ...member, username: 'member' } });
    await service.app.db.emailPreferences.create({ data: { userId: member.id, marketing: false } });
    const undecided = { id: randomUUID(), email: uniqueAddress() };
    await service.app.db.user.create({ data: { ...undecided, username: 'undecided' } });
    await service.app.db.emailPreferences.create({ data: { userId: undecided.id } });
    const last = uniqueAddress();
    const events = [optedOut, member.email, undecided.email, last].map(share);
    // One key, one partition, in order: once the last has arrived, the others were handled.
    await send(...events);
    await arrived(last);
    // A marketing choice never made is no refusal.
    await arrived(undecided.email);
    expect(await inbox(optedOut)).toEqual([]);
    expect(await inbox(member.email)).toEqual([]);
    expect(await findSentEmail(service.app.db, events[0]!.id)).toBeNull();
    expect(await findSentEmail(service.app.db, events[1]!.id)).toBeNull();
  });
});
