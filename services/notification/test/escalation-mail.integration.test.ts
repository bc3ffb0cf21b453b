import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent } from '@challenge/events';
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
import { findUser } from '../src/data/users.ts';
import { MAIL_GROUP } from '../src/events/consumers.ts';
import { inbox, newUser, notificationBuilder, publish, uniqueAddress } from './support.ts';

const topicPrefix = uniqueTopicPrefix();
let service: TestService<NotificationApp>;

// Three admins: one with an English account, one with a Dutch account, one address without an
// account (English).
const english = newUser({ locale: 'en' });
const dutch = newUser({ locale: 'nl' });
const noAccount = uniqueAddress();

beforeAll(async () => {
  service = await startTestService(
    'notification',
    notificationBuilder({}, undefined, [english.user.email, dutch.user.email, noAccount]),
    { topicPrefix },
  );
  await publish(topicPrefix, english.event, dutch.event);
  await eventually(async () => {
    expect(await findUser(service.app.db, english.user.id)).not.toBeNull();
    expect(await findUser(service.app.db, dutch.user.id)).not.toBeNull();
  });
});
afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

const arrived = (address: string) =>
  eventually(async () => {
    const messages = await inbox(address);
    expect(messages.length).toBeGreaterThanOrEqual(1);
    return messages;
  });

describe('an overdue referee case', () => {
  it('is mailed once to every admin, in their language, with a link to the referee tab', async () => {
    const challengeId = randomUUID();
    const escalated = newEvent('RefereeCaseEscalated', {
      aggregateId: challengeId,
      actorId: null,
      data: {
        caseId: randomUUID(),
        challengeId,
        slug: 'eat-a-lemon-1a2b',
        challengeName: 'Eat a lemon',
        rewardCents: 1250,
        deadline: '2026-11-20T09:30:00.000Z',
        escalatedAt: '2026-11-20T09:31:00.000Z',
        performerUsername: 'bob',
      },
    });
    // Redelivered: still one mail per admin.
    await publish(topicPrefix, escalated, escalated);

    const link = 'https://challenge.test/moderator?tab=referee';
    const [en] = await arrived(english.user.email);
    expect(en!.subject).toBe('Overdue referee case: Eat a lemon');
    expect(en!.text).toContain(
      'No referee decided on the disputed video of @bob in “Eat a lemon” (reward €12.50) before its deadline of 20 November 2026',
    );
    expect(en!.text).toContain(link);
    expect(en!.text).not.toContain('email-preferences');

    const [nl] = await arrived(dutch.user.email);
    expect(nl!.subject).toBe('Scheidsrechterzaak over tijd: Eat a lemon');
    expect(nl!.text).toContain(
      'Geen scheidsrechter heeft over de betwiste video van @bob in “Eat a lemon” (beloning €\u00a012,50) beslist voor de deadline van 20 november 2026 om 10:30',
    );
    expect(nl!.text).toContain(link);

    const [unknown] = await arrived(noAccount);
    expect(unknown!.subject).toBe('Overdue referee case: Eat a lemon');

    await waitForCaughtUp(topicPrefix, MAIL_GROUP, TOPICS.moderation);
    for (const address of [english.user.email, dutch.user.email, noAccount]) {
      expect(await inbox(address)).toHaveLength(1);
    }
  });
});
