import type { DomainEvent } from '@challenge/events';
import { deliverOnce, type DeliveryDeps, type DeliveryOutcome } from './deliveries.ts';
import { toLocale } from './templates/index.ts';

/**
 * The e-mail commands other services send on notification.commands.v1 (DESIGN.md section 3).
 * They are transactional: sent whatever the recipient's e-mail preferences.
 */

/** A log-in link and code; for an address without an account, the sign-up variant. */
export function sendLoginLinkEmail(
  deps: DeliveryDeps,
  event: DomainEvent<'LoginLinkRequested'>,
): Promise<DeliveryOutcome> {
  const { email, locale, purpose, link, code, expiresAt } = event.data;
  return deliverOnce(deps, {
    eventId: event.id,
    recipient: email,
    locale: toLocale(locale),
    template: {
      name: purpose === 'signup' ? 'signup-link' : 'login-link',
      data: { code, link, expiresAt: new Date(expiresAt) },
    },
    expiresAt: new Date(expiresAt),
    secrets: [link, code],
  });
}

export function sendPasswordResetEmail(
  deps: DeliveryDeps,
  event: DomainEvent<'PasswordResetRequested'>,
): Promise<DeliveryOutcome> {
  const { email, locale, username, link, expiresAt } = event.data;
  return deliverOnce(deps, {
    eventId: event.id,
    recipient: email,
    locale: toLocale(locale),
    template: {
      name: 'password-reset',
      data: { username, link, expiresAt: new Date(expiresAt) },
    },
    expiresAt: new Date(expiresAt),
    secrets: [link],
  });
}
