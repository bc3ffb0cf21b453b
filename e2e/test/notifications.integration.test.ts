import { randomBytes, randomUUID } from 'node:crypto';
import { TOPICS, newEvent, type DomainEvent } from '@challenge/events';
import { buildApp as buildIdentity } from '@challenge/identity/app';
import { seedUser } from '@challenge/identity/seed';
import { buildApp as buildNotification } from '@challenge/notification/app';
import {
  deleteTopics,
  eventually,
  graphql,
  inbox,
  produceRaw,
  stack,
  startTestService,
  testIdentityConfig,
  tokenFor,
  uniqueTopicPrefix,
  waitForCaughtUp,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway } from '../support/gateway.ts';

const ACTIVITY = /* GraphQL */ `
  query {
    getActivityLogByUser {
      status {
        success
        identifier
      }
      items {
        type
        challenge {
          slug
          challengeName
          challengeReward
        }
        user {
          id
          username
          displayName
        }
      }
      pagination {
        totalCount
      }
    }
  }
`;
const PREFERENCES_BY_TOKEN = /* GraphQL */ `
  mutation ($input: UpdateEmailPreferencesInput!) {
    updateEmailPreferences(input: $input) {
      status {
        success
        identifier
      }
      emailPreferences {
        newChallenge
        marketing
      }
    }
  }
`;

// Navigated freely: the assertions check the shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('notifications through the gateway: activity log and e-mail from challenge events', () => {
  const topicPrefix = uniqueTopicPrefix();
  let identity: TestService<Awaited<ReturnType<typeof buildIdentity>>>;
  let notification: TestService<Awaited<ReturnType<typeof buildNotification>>>;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;

  beforeAll(async () => {
    [identity, notification] = await Promise.all([
      startTestService(
        'identity',
        async (runtime, url) => buildIdentity(runtime, await testIdentityConfig(url)),
        { topicPrefix },
      ),
      startTestService(
        'notification',
        (runtime, url) =>
          buildNotification(runtime, url, {
            mail: {
              host: stack.smtp.host,
              port: stack.smtp.port,
              secure: false,
              from: 'Challenge <no-reply@challenge.test>',
            },
            links: {
              publicOrigin: 'https://challenge.test',
              secret: 'e2e-secret-of-the-email-preferences-links-000',
            },
          }),
        { topicPrefix },
      ),
    ]);
    gateway = await startTestGateway({ identity: identity.url, notification: notification.url });
  });
  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([identity?.stop(), notification?.stop()]);
    await deleteTopics(topicPrefix);
  });

  /** A challenge event as the challenge service publishes it (none does yet). */
  const publish = (...events: DomainEvent[]) =>
    produceRaw(
      topicPrefix,
      TOPICS.challenge,
      events.map((event) => ({ key: event.aggregateId, value: JSON.stringify(event) })),
    );
  const activityOf = async (userId: string) =>
    (await graphql<Json>(gateway.url, ACTIVITY, {}, { token: await tokenFor({ id: userId }) })).data
      ?.getActivityLogByUser;

  it('names the other party through identity, and mails the challenged user in their language', async () => {
    const suffix = randomBytes(3).toString('hex');
    const owner = await seedUser(identity.app.db, { username: `alice_${suffix}`, locale: 'en' });
    const challenged = await seedUser(identity.app.db, { username: `bob_${suffix}`, locale: 'nl' });
    // notification learns of both from identity's UserRegistered, through Kafka.
    await eventually(async () =>
      expect(
        await notification.app.db.user.count({ where: { id: { in: [owner.id, challenged.id] } } }),
      ).toBe(2),
    );

    const snapshot = {
      challengeId: randomUUID(),
      slug: `juggle-${suffix}`,
      challengeName: 'Juggle five eggs',
      rewardCents: 500,
      ownerId: owner.id,
      challengedUserId: challenged.id,
      challengedEmail: challenged.email,
    };
    const created = newEvent('ChallengeCreated', {
      aggregateId: snapshot.challengeId,
      actorId: owner.id,
      data: {
        ...snapshot,
        visibility: 'public',
        expiresAt: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
      },
    });
    const accepted = newEvent('ChallengeAccepted', {
      aggregateId: snapshot.challengeId,
      actorId: challenged.id,
      data: snapshot,
    });
    await publish(created, accepted, created);

    const challengedLog = await eventually(async () => {
      const log = await activityOf(challenged.id);
      expect(log.items).toHaveLength(1);
      return log;
    });
    expect(challengedLog).toEqual({
      status: { success: true, identifier: 'ok' },
      items: [
        {
          type: 'invited',
          challenge: {
            slug: snapshot.slug,
            challengeName: 'Juggle five eggs',
            challengeReward: 500,
          },
          user: { id: owner.id, username: owner.username, displayName: null },
        },
      ],
      pagination: { totalCount: 1 },
    });
    const ownerLog = await eventually(async () => {
      const log = await activityOf(owner.id);
      expect(log.items).toHaveLength(1);
      return log;
    });
    expect(ownerLog.items[0]).toMatchObject({
      type: 'accepted',
      user: { id: challenged.id, username: challenged.username },
    });

    const [invitation, ...more] = await eventually(async () => {
      const mails = await inbox(challenged.email);
      expect(mails.length).toBeGreaterThan(0);
      return mails;
    });
    const [acceptedMail] = await eventually(async () => {
      const mails = await inbox(owner.email);
      expect(mails.length).toBeGreaterThan(0);
      return mails;
    });
    await waitForCaughtUp(topicPrefix, 'notification.mail', TOPICS.challenge);
    expect(more).toEqual([]);
    expect(invitation!.subject).toBe('Nieuwe challenge voor jou: Juggle five eggs');
    expect(invitation!.text).toContain(`door ${owner.username} uitgedaagd`);
    expect(acceptedMail!.subject).toBe('Your challenge was accepted: Juggle five eggs');

    // The preferences link in the mail works through the gateway without logging in.
    const link = new URL(invitation!.text.match(/https:\/\/\S+\/email-preferences\?token=\S+/)![0]);
    const token = link.searchParams.get('token');
    const turnedOff = await graphql<Json>(gateway.url, PREFERENCES_BY_TOKEN, {
      input: { token, newChallenge: false },
    });
    expect(turnedOff.data?.updateEmailPreferences).toEqual({
      status: { success: true, identifier: 'ok' },
      emailPreferences: { newChallenge: false, marketing: null },
    });

    // The next invitation reaches the log, but no longer the inbox.
    const cake = { ...snapshot, challengeId: randomUUID(), slug: `cake-${suffix}` };
    const second = newEvent('ChallengeCreated', {
      aggregateId: cake.challengeId,
      actorId: owner.id,
      data: {
        ...cake,
        challengeName: 'Bake a cake',
        visibility: 'public',
        expiresAt: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
      },
    });
    await publish(second);
    await eventually(async () => expect((await activityOf(challenged.id)).items).toHaveLength(2));
    await waitForCaughtUp(topicPrefix, 'notification.mail', TOPICS.challenge);
    expect(await inbox(challenged.email)).toHaveLength(1);
  });
});
