import type { DomainEvent } from '@challenge/events';
import { deliverOnce, type DeliveryDeps, type DeliveryOutcome } from './deliveries.ts';
import { challengeUrl, invitationOptOutUrl, type LinkConfig } from './links.ts';
import { wantsInvitations } from './opt-outs.ts';
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
 * A challenge's owner invited an address to look at it (shareChallengeLink; challenge lets only
 * the owner invite and rate-limits it per sender). Not sent to an address that opted out or whose
 * account turned marketing off (docs/adr/0074): checked on every attempt, so a retry after an
 * opt-out sends nothing; an opt-out made while an attempt is on the wire does not stop that one.
 * The sender is not told (an opt-out is the address's own business). The links are built here
 * from notification's own origin: the challenge's from its slug, the opt-out link from the address.
 */
export async function sendChallengeShareEmail(
  deps: DeliveryDeps & { links: LinkConfig },
  event: DomainEvent<'ChallengeShareRequested'>,
): Promise<DeliveryOutcome | 'opted-out'> {
  const { email, locale, challengeName, sharedBy, slug } = event.data;
  if (!(await wantsInvitations(deps.db, email))) {
    deps.logger.debug({ eventId: event.id }, 'invited address opted out; no e-mail');
    return 'opted-out';
  }
  return deliverOnce(deps, {
    eventId: event.id,
    recipient: email,
    locale: toLocale(locale),
    template: {
      name: 'challenge-share',
      data: {
        sharedBy,
        challengeName,
        challengeUrl: challengeUrl(deps.links, slug),
        optOutUrl: invitationOptOutUrl(deps.links, email),
      },
    },
    expiresAt: new Date(new Date(event.occurredAt).getTime() + SHARE_MAIL_TTL_MS),
    secrets: [],
  });
}
