import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { TOPICS } from '@challenge/events';
import {
  deleteTopics,
  eventually,
  produceRaw,
  readTopic,
  startTestService,
  uniqueTopicPrefix,
  waitForCaughtUp,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationApp } from '../src/app.ts';
import { findSentEmail, findSentEmails } from '../src/data/sent-emails.ts';
import { findUsers } from '../src/data/users.ts';
import { ACTIVITY_GROUP, COMMANDS_GROUP, MAIL_GROUP } from '../src/events/consumers.ts';
import {
  asMessage,
  challengeEvent,
  loginLinkRequested,
  newChallenge,
  newUser,
  notificationBuilder,
  publish,
} from './support.ts';

/** Small retry settings: three attempts, 50 ms then 100 ms apart. */
const retries = { maxAttempts: 3, retryBaseMs: 50 };

describe('when the SMTP relay is unreachable', () => {
  const topicPrefix = uniqueTopicPrefix();
  let service: TestService<NotificationApp>;

  beforeAll(async () => {
    // Nothing listens on the discard port.
    service = await startTestService('notification', notificationBuilder({ port: 9 }, retries), {
      topicPrefix,
    });
  });
  afterAll(async () => {
    await service?.stop();
    await deleteTopics(topicPrefix);
  });

  it('records each attempt, then parks the command on the dead-letter topic; no secret is kept', async () => {
    const event = loginLinkRequested();
    const { code, link } = event.data;
    await produceRaw(topicPrefix, TOPICS.notificationCommands, [asMessage(event)]);

    const [parked] = await readTopic(topicPrefix, TOPICS.deadLetter, (all) => all.length > 0);
    expect(JSON.parse(parked!.value!.toString()).id).toBe(event.id);
    expect(parked!.headers?.['original-topic']?.toString()).toBe(
      `${topicPrefix}${TOPICS.notificationCommands}`,
    );
    const reason = parked!.headers?.reason?.toString() ?? '';
    expect(reason).toMatch(/^handler failed: .*ECONNREFUSED/);
    expect(reason).not.toContain(code);
    expect(reason).not.toContain(link);

    const row = await findSentEmail(service.app.db, event.id);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, sentAt: null });
    expect(row?.lastError).toMatch(/ECONNREFUSED 127\.0\.0\.1:9/);
    const [stored] = await service.app.db.$queryRaw<{ row: string }[]>`
      SELECT row_to_json(s)::text AS row FROM sent_emails s WHERE event_id = ${event.id}::uuid`;
    expect(stored?.row).not.toContain(code);
    expect(stored?.row).not.toContain(link);
  });

  it('keeps the activity log going: the entry is recorded, the e-mail retried and parked', async () => {
    const owner = newUser();
    const challenged = newUser();
    const challenge = newChallenge(owner.user, challenged.user);
    const accepted = challengeEvent('ChallengeAccepted', challenge, {});
    const liked = challengeEvent('ChallengeLiked', challenge, { likedBy: challenged.user.id });
    // The accounts first: a mail attempt that finds its recipient not yet projected (another
    // consumer group) fails without a row, and the row's count would be one short.
    await publish(topicPrefix, owner.event, challenged.event);
    await eventually(async () =>
      expect(await findUsers(service.app.db, [owner.user.id, challenged.user.id])).toHaveLength(2),
    );
    await publish(topicPrefix, accepted, liked);

    // Both entries are there at once: the activity consumer never waits for the mail.
    await eventually(async () =>
      expect(
        await service.app.db.activityEntry.findMany({
          where: { userId: owner.user.id },
          select: { type: true },
          orderBy: { id: 'asc' },
        }),
      ).toEqual([{ type: 'accepted' }, { type: 'liked' }]),
    );
    const parked = await readTopic(topicPrefix, TOPICS.deadLetter, (all) =>
      all.some((message) => JSON.parse(message.value!.toString()).id === accepted.id),
    );
    const letter = parked.find(
      (message) => JSON.parse(message.value!.toString()).id === accepted.id,
    );
    expect(letter!.headers?.['consumer-group']?.toString()).toBe(`${topicPrefix}${MAIL_GROUP}`);
    expect(await findSentEmails(service.app.db, accepted.id)).toEqual([
      expect.objectContaining({ recipient: owner.user.email, status: 'failed', attempts: 3 }),
    ]);
    await waitForCaughtUp(topicPrefix, ACTIVITY_GROUP, TOPICS.challenge);
  });
});

describe('when the SMTP relay refuses for a while', () => {
  const topicPrefix = uniqueTopicPrefix();
  let service: TestService<NotificationApp>;
  let smtp: SMTPServer;
  /** Temporary refusals still to give, and what the relay accepted. */
  let refusals = 0;
  const accepted: {
    messageId: string | undefined;
    to: string[];
    subject: string | undefined;
    text: string | undefined;
    listUnsubscribe: string | undefined;
  }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('no-such-mailbox'))
          return callback(Object.assign(new Error('no such mailbox'), { responseCode: 550 }));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (refusals > 0) {
            refusals -= 1;
            return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
          }
          void PostalMime.parse(Buffer.concat(chunks)).then((mail) => {
            accepted.push({
              messageId: mail.messageId,
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              subject: mail.subject,
              text: mail.text,
              listUnsubscribe: mail.headers.find((header) => header.key === 'list-unsubscribe')
                ?.value,
            });
            callback();
          }, callback);
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    service = await startTestService(
      'notification',
      notificationBuilder({ port }, { maxAttempts: 5, retryBaseMs: 50 }),
      { topicPrefix },
    );
  });
  afterAll(async () => {
    await service?.stop();
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
    await deleteTopics(topicPrefix);
  });

  it('retries with backoff until the e-mail is accepted, then never sends it again', async () => {
    refusals = 2;
    const event = loginLinkRequested({ locale: 'nl' });
    await produceRaw(topicPrefix, TOPICS.notificationCommands, [asMessage(event)]);

    const row = await eventually(async () => {
      const found = await findSentEmail(service.app.db, event.id);
      expect(found?.status).toBe('sent');
      return found!;
    });
    expect(row.attempts).toBe(3);
    expect(row.lastError).toMatch(/451 try again later/);
    expect(accepted).toEqual([
      {
        messageId: `<${event.id}@challenge.local>`,
        to: [event.data.email],
        subject: `Je inlogcode voor Challenge: ${event.data.code}`,
        text: expect.stringContaining(event.data.link),
        // Transactional: nothing to unsubscribe from.
        listUnsubscribe: undefined,
      },
    ]);

    // The same command again (a redelivery): nothing more reaches the relay.
    await produceRaw(topicPrefix, TOPICS.notificationCommands, [asMessage(event)]);
    await waitForCaughtUp(topicPrefix, COMMANDS_GROUP, TOPICS.notificationCommands);
    expect(accepted).toHaveLength(1);
    expect((await findSentEmail(service.app.db, event.id))?.attempts).toBe(3);
  });

  it('parks an e-mail the relay refuses for good (5xx) after one attempt', async () => {
    const event = loginLinkRequested({ email: `no-such-mailbox-${Date.now()}@example.com` });
    await produceRaw(topicPrefix, TOPICS.notificationCommands, [asMessage(event)]);

    const parked = await readTopic(topicPrefix, TOPICS.deadLetter, (all) =>
      all.some((message) => JSON.parse(message.value!.toString()).id === event.id),
    );
    const letter = parked.find((message) => JSON.parse(message.value!.toString()).id === event.id);
    expect(letter?.headers?.reason?.toString()).toMatch(/550 no such mailbox/);
    expect(await findSentEmail(service.app.db, event.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
    });
  });

  it('sends the e-mail of each party of an event once, with its List-Unsubscribe header', async () => {
    const owner = newUser();
    const challenged = newUser({ locale: 'nl' });
    const challenge = newChallenge(owner.user, challenged.user);
    const failed = challengeEvent('ChallengeFailed', challenge, { comment: null });
    await publish(topicPrefix, owner.event, challenged.event);
    await waitForCaughtUp(topicPrefix, ACTIVITY_GROUP, TOPICS.identity);
    const before = accepted.length;
    // The owner's first try is refused: the challenged user still gets theirs at once, and the
    // retry sends the owner's without mailing the challenged user again.
    refusals = 1;
    await publish(topicPrefix, failed);
    await eventually(async () =>
      expect(
        (await findSentEmails(service.app.db, failed.id)).map((row) => [
          row.recipient,
          row.status,
          row.attempts,
        ]),
      ).toEqual(
        [
          [owner.user.email, 'sent', 2],
          [challenged.user.email, 'sent', 1],
        ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      ),
    );
    await waitForCaughtUp(topicPrefix, MAIL_GROUP, TOPICS.challenge);
    const mails = accepted.slice(before);
    expect(mails.map((mail) => mail.to[0]).sort()).toEqual(
      [owner.user.email, challenged.user.email].sort(),
    );
    for (const mail of mails) {
      expect(mail.listUnsubscribe).toMatch(
        /^<https:\/\/challenge\.test\/email-preferences\?token=[\w-]+\.[\w-]+>$/,
      );
    }
    expect(mails.map((mail) => mail.messageId).sort()).toEqual(
      [
        `<${failed.id}.${owner.user.id}@challenge.local>`,
        `<${failed.id}.${challenged.user.id}@challenge.local>`,
      ].sort(),
    );
  });
});
