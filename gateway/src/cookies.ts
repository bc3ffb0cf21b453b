import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request } from 'express';

/** The session cookie: the identity token, as the spec's section 9 lays it down. */
export const SESSION_COOKIE = 'session';
export const SESSION_MAX_AGE_SECONDS = 7_889_238;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function sessionTokenFrom(req: Request): string | null {
  const header = req.get('cookie');
  return (header && parseCookie(header)[SESSION_COOKIE]) || null;
}

/**
 * `Secure` is always set in production. Elsewhere it is left off only when the browser talks
 * plain http to a loopback host name (http://127.0.0.1:4700 of `npm start`), where a browser
 * would otherwise refuse or drop the cookie; any https or non-loopback request keeps it.
 */
export function cookiesAreSecure(req: Request, production: boolean): boolean {
  if (production) return true;
  return !(req.protocol === 'http' && LOOPBACK_HOSTS.has(req.hostname));
}

const attributes = (secure: boolean) =>
  ({ httpOnly: true, secure, sameSite: 'strict', path: '/' }) as const;

export const sessionCookie = (token: string, secure: boolean): string =>
  stringifySetCookie(SESSION_COOKIE, token, {
    ...attributes(secure),
    maxAge: SESSION_MAX_AGE_SECONDS,
  });

export const clearedSessionCookie = (secure: boolean): string =>
  stringifySetCookie(SESSION_COOKIE, '', { ...attributes(secure), maxAge: 0 });
