import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { newEvent } from '@challenge/events';
import type { ServiceRuntime } from '@challenge/kit';
import { stack } from '@challenge/testing';

export { inbox, type CaughtMail } from '@challenge/testing';
import { buildApp, type NotificationApp, type NotificationOptions } from '../src/app.ts';

/** Builds notification against the local stack's SMTP catcher, with any setting overridden. */
export const notificationBuilder =
  (
    overrides: Partial<NotificationOptions['mail']> = {},
    consumer?: NotificationOptions['consumer'],
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
      consumer,
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
