import {
  AppError,
  AuthStateUnavailableError,
  bearerToken,
  type AuthUser,
  type TokenVerifier,
} from '@challenge/kit';
import type { Request, RequestHandler } from 'express';
import { clearedSessionCookie, cookiesAreSecure, sessionTokenFrom } from './cookies.ts';
import { sendError } from './respond.ts';

export interface Authentication {
  token: string | null;
  user: AuthUser | null;
}

export interface AuthOptions {
  verifier: TokenVerifier;
  /** Token state beyond the signature: revoked tokens, banned users (kit's createAccessCheck). */
  accessCheck: (user: AuthUser) => Promise<void>;
  publicOrigin: string;
  production: boolean;
}

/** The origin a request comes from: its Origin header, else its Referer's origin. */
function requestOrigin(req: Request): string | null {
  const origin = req.get('origin');
  if (origin) return origin;
  const referer = req.get('referer');
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

/**
 * Resolves who calls /graphql into `res.locals.auth`. A bearer Authorization header wins;
 * otherwise the session cookie's token is used, but only from the site's own origin (cookies
 * ride along on cross-site requests: CSRF). A refused token answers 401 and clears the cookie.
 */
export function authenticate(options: AuthOptions): RequestHandler {
  const publicOrigin = new URL(options.publicOrigin).origin;
  return async (req, res, next) => {
    const headerToken = bearerToken(req.get('authorization'));
    const cookieToken = headerToken ? null : sessionTokenFrom(req);
    if (cookieToken && requestOrigin(req) !== publicOrigin) {
      sendError(res, 403, 'access_denied', 'FORBIDDEN');
      return;
    }
    const token = headerToken ?? cookieToken;
    let user: AuthUser | null = null;
    if (token) {
      try {
        user = await options.verifier.verify(token);
        await options.accessCheck(user);
      } catch (error) {
        if (error instanceof AuthStateUnavailableError) {
          // Redis lost the token state: answer 503 and keep the session (not a 401).
          sendError(res, 503, 'generic_error', 'SERVICE_UNAVAILABLE');
          return;
        }
        if (!(error instanceof AppError)) throw error;
        res.append('Set-Cookie', clearedSessionCookie(cookiesAreSecure(req, options.production)));
        sendError(res, 401, error.identifier, 'UNAUTHENTICATED');
        return;
      }
    }
    res.locals.auth = { token, user } satisfies Authentication;
    next();
  };
}
