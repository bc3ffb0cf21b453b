import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { EVENT_TYPES, newEvent, type DomainEvent, type EventData } from '@challenge/events';
import type { ServiceRuntime } from '@challenge/kit';
import { produceRaw, stack } from '@challenge/testing';

export { inbox, type CaughtMail } from '@challenge/testing';
import { buildApp, type NotificationApp, type NotificationOptions } from '../src/app.ts';
import type { LinkConfig } from '../src/domain/links.ts';

/** The links of every test service: a fixed origin and key, so tests can sign and check tokens. */
export const TEST_LINKS: LinkConfig = {
  publicOrigin: 'https://challenge.test',
  secret: 'test-secret-of-the-email-preferences-links-0000',
};

/** Builds notification against the local stack's SMTP catcher, with any setting overridden. */
export const notificationBuilder =
  (
    overrides: Partial<NotificationOptions['mail']> = {},
    consumer?: NotificationOptions['consumer'],
    adminEmails?: readonly string[],
  ) =>
  (runtime: ServiceRuntime, databaseUrl: string): Promise<NotificationApp> =>
    buildApp(runtime, databaseUrl, {
      mail: {
        host: stack.smtp.host,
        port: stack.smtp.port,
        secure: false,
        from: 'Challenge Platform <no-reply@challenge.local>',
        ...overrides,
      },
      links: TEST_LINKS,
      consumer,
      adminEmails,
    });

/** An address no other test uses, so the catcher's inbox for it holds this test's mail only. */
export const uniqueAddress = () => `n${randomBytes(6).toString('hex')}@example.test`;

const inFifteenMinutes = () => new Date(Date.now() + 15 * 60_000).toISOString();
const sixDigits = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export function loginLinkRequested(
  overrides: Partial<{
    email: string;
    locale: 'en' | 'nl';
    purpose: 'login' | 'signup';
    expiresAt: string;
  }> = {},
) {
  const email = overrides.email ?? uniqueAddress();
  const secret = randomBytes(16).toString('hex');
  return newEvent('LoginLinkRequested', {
    aggregateId: email,
    actorId: null,
    data: {
      email,
      locale: overrides.locale ?? 'en',
      purpose: overrides.purpose ?? 'login',
      link: `https://challenge.test/verify-login?email=${encodeURIComponent(email)}&hash=${secret}&expires=1790000000`,
      code: sixDigits(),
      expiresAt: overrides.expiresAt ?? inFifteenMinutes(),
    },
  });
}

export function passwordResetRequested(
  overrides: Partial<{ email: string; locale: 'en' | 'nl'; username: string }> = {},
) {
  const email = overrides.email ?? uniqueAddress();
  return newEvent('PasswordResetRequested', {
    aggregateId: randomUUID(),
    actorId: null,
    data: {
      email,
      locale: overrides.locale ?? 'en',
      username: overrides.username ?? 'sam_the_runner',
      link: `https://challenge.test/reset-password?token=${randomBytes(24).toString('base64url')}`,
      expiresAt: inFifteenMinutes(),
    },
  });
}

/** A Kafka message as identity's outbox relay would publish it. */
export const asMessage = (event: { aggregateId: string }) => ({
  key: event.aggregateId,
  value: JSON.stringify(event),
});

/** Events as their producers publish them: each to the topic of its type, keyed by aggregate. */
export async function publish(topicPrefix: string, ...events: DomainEvent[]): Promise<void> {
  for (const event of events) {
    await produceRaw(topicPrefix, EVENT_TYPES[event.type].topic, [asMessage(event)]);
  }
}

export interface TestUser {
  id: string;
  email: string;
  username: string;
  locale: 'en' | 'nl';
}

/** A new account as identity announces it (UserRegistered), not yet published. */
export function newUser(overrides: Partial<TestUser> = {}): {
  user: TestUser;
  event: DomainEvent<'UserRegistered'>;
} {
  const id = overrides.id ?? randomUUID();
  const user: TestUser = {
    id,
    email: overrides.email ?? uniqueAddress(),
    username: overrides.username ?? `u_${randomBytes(4).toString('hex')}`,
    locale: overrides.locale ?? 'en',
  };
  const event = newEvent('UserRegistered', {
    aggregateId: id,
    actorId: id,
    data: { userId: id, username: user.username, email: user.email, locale: user.locale },
  });
  return { user, event };
}

export interface TestChallenge {
  challengeId: string;
  slug: string;
  challengeName: string;
  rewardCents: number;
  ownerId: string;
  challengedUserId: string | null;
  challengedEmail: string | null;
  challengeType?: 'solo' | 'duel';
}

export function newChallenge(
  owner: { id: string },
  challenged: { id: string; email: string } | { email: string },
  overrides: Partial<TestChallenge> = {},
): TestChallenge {
  const challengeId = randomUUID();
  return {
    challengeId,
    slug: `dare-${challengeId.slice(0, 8)}`,
    challengeName: 'Juggle five eggs',
    rewardCents: 1250,
    ownerId: owner.id,
    challengedUserId: 'id' in challenged ? challenged.id : null,
    challengedEmail: challenged.email,
    ...overrides,
  };
}

type ChallengeEventType =
  Extract<keyof typeof EVENT_TYPES, `Challenge${string}`> | 'DuelSideJudged';

/** A challenge saga event as the challenge service would publish it. */
export function challengeEvent<T extends ChallengeEventType>(
  type: T,
  challenge: TestChallenge,
  extra: Omit<EventData<T>, keyof TestChallenge>,
  actorId: string | null = null,
): DomainEvent<T> {
  return newEvent(type, {
    aggregateId: challenge.challengeId,
    actorId,
    data: { ...challenge, ...extra } as EventData<T>,
  });
}

export const inTwoWeeks = () => new Date(Date.now() + 14 * 24 * 3600_000).toISOString();
