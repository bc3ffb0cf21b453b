import type { DomainEvent } from '@challenge/events';
import { deliverOnce, type DeliveryDeps, type DeliveryOutcome } from './deliveries.ts';
import { challengeUrl, type LinkConfig } from './links.ts';
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

/** How long a share invitation may wait for an SMTP outage before it is no longer worth sending. */
const SHARE_MAIL_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A user invited an address to look at a challenge (shareChallengeLink; challenge rate-limits it
 * per sender). The link is built here from notification's own origin and the slug.
 */
export function sendChallengeShareEmail(
  deps: DeliveryDeps & { links: LinkConfig },
  event: DomainEvent<'ChallengeShareRequested'>,
): Promise<DeliveryOutcome> {
  const { email, locale, challengeName, sharedBy, slug } = event.data;
  return deliverOnce(deps, {
    eventId: event.id,
    recipient: email,
    locale: toLocale(locale),
    template: {
      name: 'challenge-share',
      data: { sharedBy, challengeName, challengeUrl: challengeUrl(deps.links, slug) },
    },
    expiresAt: new Date(new Date(event.occurredAt).getTime() + SHARE_MAIL_TTL_MS),
    secrets: [],
  });
}
