import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@challenge/kit';

/**
 * The links notification puts in e-mail: pages of the web app under the public origin, and the
 * signed e-mail preferences link that works without logging in (docs/adr/0014).
 */
export interface LinkConfig {
  /** The site's origin, e.g. https://challenge.example.com (no path). */
  publicOrigin: string;
  /** HMAC key of the preferences tokens. */
  secret: string;
}

/** How long a preferences link keeps working: long enough for an old e-mail's unsubscribe link. */
export const PREFERENCES_LINK_TTL_SECONDS = 90 * 24 * 60 * 60;

/** Bound into every signature, so that a token signed for another purpose never verifies here. */
const PURPOSE = 'email-preferences.v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const mac = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`${PURPOSE}:${payload}`).digest();

/** `<base64url of "user id.expiry in epoch seconds">.<base64url HMAC-SHA256>` */
export function signPreferencesToken(
  secret: string,
  userId: string,
  now: Date = new Date(),
  ttlSeconds = PREFERENCES_LINK_TTL_SECONDS,
): string {
  const payload = `${userId}.${Math.floor(now.getTime() / 1000) + ttlSeconds}`;
  return `${Buffer.from(payload).toString('base64url')}.${mac(secret, payload).toString('base64url')}`;
}

export const INVALID_LINK = 'This e-mail preferences link is not valid.';
export const EXPIRED_LINK = 'This e-mail preferences link has expired. Log in to change them.';

/**
 * The user id a preferences token was signed for. A token that is malformed or not signed with
 * our key is `unauthorized`; a genuine one past its expiry is `expired_credentials`.
 */
export function verifyPreferencesToken(secret: string, token: string, now: Date = new Date()) {
  const [encoded, signature, ...rest] = token.split('.');
  if (!encoded || !signature || rest.length > 0) throw new AppError('unauthorized', INVALID_LINK);
  const payload = Buffer.from(encoded, 'base64url').toString('utf8');
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError('unauthorized', INVALID_LINK);
  }
  const [userId, expiry] = payload.split('.');
  if (!userId || !UUID.test(userId) || !expiry || !/^\d{1,12}$/.test(expiry)) {
    throw new AppError('unauthorized', INVALID_LINK);
  }
  if (Number(expiry) * 1000 <= now.getTime())
    throw new AppError('expired_credentials', EXPIRED_LINK);
  return userId.toLowerCase();
}

/**
 * The opt-out token of an invited address (docs/adr/0074): `<base64url of the address>.<base64url
 * HMAC-SHA256>`, under a purpose of its own, so that neither kind of token verifies as the other.
 * It does not expire: an unsubscribe link must keep working as long as the mail is kept; it only
 * ever switches invitations to that one address off or on again.
 */
const OPT_OUT_PURPOSE = 'invitation-opt-out.v1';
export const INVALID_OPT_OUT_LINK = 'This link is not valid.';

const optOutMac = (secret: string, email: string) =>
  createHmac('sha256', secret).update(`${OPT_OUT_PURPOSE}:${email}`).digest();

export function signOptOutToken(secret: string, email: string): string {
  const address = email.toLowerCase();
  return `${Buffer.from(address).toString('base64url')}.${optOutMac(secret, address).toString('base64url')}`;
}

/** The address an opt-out token was signed for; unauthorized when it is not one of ours. */
export function verifyOptOutToken(secret: string, token: string): string {
  const [encoded, signature, ...rest] = token.split('.');
  if (!encoded || !signature || rest.length > 0) {
    throw new AppError('unauthorized', INVALID_OPT_OUT_LINK);
  }
  const email = Buffer.from(encoded, 'base64url').toString('utf8');
  const given = Buffer.from(signature, 'base64url');
  const expected = optOutMac(secret, email);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError('unauthorized', INVALID_OPT_OUT_LINK);
  }
  return email;
}

const page = (config: LinkConfig, path: string) => new URL(path, config.publicOrigin).toString();

/** The page where an invited address stops (or resumes) invitations, no log-in needed. */
export const invitationOptOutUrl = (config: LinkConfig, email: string) =>
  `${page(config, '/email-opt-out')}?token=${signOptOutToken(config.secret, email)}`;

export const challengeUrl = (config: LinkConfig, slug: string) =>
  page(config, `/challenge/${encodeURIComponent(slug)}/detail`);

/**
 * For an address without an account: the challenge page with the log-in dialog open. Requesting
 * a link there signs the address up, and completing the account returns to the challenge.
 */
export const invitationSignupUrl = (config: LinkConfig, slug: string) =>
  `${challengeUrl(config, slug)}?modal=login-magic-link`;

/** The reporter's own reports and their outcomes (docs/adr/0059). */
export const myReportsUrl = (config: LinkConfig) => page(config, '/settings/my-reports');

export const walletUrl = (config: LinkConfig) => page(config, '/wallet');

export const paymentSettingsUrl = (config: LinkConfig) => page(config, '/settings/edit-payments');

/** The staff console's referee tab (/moderator?tab=referee), for admins' escalation mail. */
export const refereeConsoleUrl = (config: LinkConfig) => page(config, '/moderator?tab=referee');

export const preferencesUrl = (config: LinkConfig, userId: string, now?: Date) =>
  `${page(config, '/email-preferences')}?token=${signPreferencesToken(config.secret, userId, now)}`;
