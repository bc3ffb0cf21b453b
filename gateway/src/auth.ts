import {
  AppError,
  AuthStateUnavailableError,
  accessStateKeys,
  bearerToken,
  decideAccess,
  type AuthUser,
  type TokenVerifier,
} from '@challenge/kit';
import type { Request, RequestHandler } from 'express';
import { clearedSessionCookie, cookiesAreSecure, sessionTokenFrom } from './cookies.ts';
import type { IpRateRule, UserRateRule } from './rate-limit-rules.ts';
import {
  countAndRead,
  ipCounter,
  sendTooManyRequests,
  userCounter,
  type RedisCounting,
} from './rate-limit.ts';
import { sendError } from './respond.ts';

export interface Authentication {
  token: string | null;
  user: AuthUser | null;
}

export interface AuthOptions {
  verifier: TokenVerifier;
  publicOrigin: string;
  production: boolean;
  /** The API's general limits (docs/adr/0082), counted before the body is read. */
  limits: GeneralLimits;
}

export interface GeneralLimits extends RedisCounting {
  /** Every request per address, signed in or not, whatever token it carries. */
  ceiling: IpRateRule;
  /** Requests without a valid token, per address. */
  anonymous: IpRateRule;
  /** Requests with a valid token, per user, from any address. */
  signedIn: UserRateRule;
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
 * Counts the request against the API's general limits and resolves who calls into
 * `res.locals.auth`, before the body is read. A bearer Authorization header wins; otherwise the
 * session cookie's token is used, but only from the site's own origin (cookies ride along on
 * cross-site requests: CSRF). A refused token answers 401 and clears the cookie.
 *
 * The limits (docs/adr/0082): every request counts against its address's ceiling, then a
 * signed-in one against its user's budget, any other (no token, or one that does not verify)
 * against its address's anonymous budget. One Redis round trip (docs/adr/0088) counts both and
 * reads the token's state beyond its signature (revoked, ended session, banned: kit's access.ts)
 * for the token whose signature was checked just before, in process (kit's verifier remembers the
 * tokens it verified, so a known token costs no cryptography). When Redis fails, the counts let
 * the request through (as every limit does) but the token's state is unknown: an authenticated
 * request then gets 503 and keeps its session, never a 401.
 */
export function authenticate(options: AuthOptions): RequestHandler {
  const publicOrigin = new URL(options.publicOrigin).origin;
  const { limits } = options;
  const counting = { ...limits, name: 'graphql' };
  const ceiling = { ...limits, name: 'api-address' };
  return async (req, res, next) => {
    try {
      const headerToken = bearerToken(req.get('authorization'));
      const cookieToken = headerToken ? null : sessionTokenFrom(req);
      const token = headerToken ?? cookieToken;
      let user: AuthUser | null = null;
      let refusal: AppError | null = null;
      if (token) {
        try {
          user = await options.verifier.verify(token);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          refusal = error;
        }
      }
      const { wait, values } = await countAndRead(
        limits,
        [
          ipCounter(ceiling, limits.ceiling, req.ip),
          user
            ? userCounter(counting, limits.signedIn, user.id)
            : ipCounter(counting, limits.anonymous, req.ip),
        ],
        user ? accessStateKeys(user) : [],
      );
      if (wait !== null) {
        if (!req.complete) res.set('connection', 'close');
        return sendTooManyRequests(res, wait);
      }
      if (cookieToken && requestOrigin(req) !== publicOrigin) {
        return sendError(res, 403, 'access_denied', 'FORBIDDEN');
      }
      if (user) {
        try {
          if (!values) throw new AuthStateUnavailableError();
          decideAccess(user, values);
        } catch (error) {
          if (error instanceof AuthStateUnavailableError) {
            // Redis lost (or cannot tell) the token state: 503, the session kept (not a 401).
            return sendError(res, 503, 'generic_error', 'SERVICE_UNAVAILABLE');
          }
          if (!(error instanceof AppError)) throw error;
          refusal = error;
        }
      }
      if (refusal) {
        res.append('Set-Cookie', clearedSessionCookie(cookiesAreSecure(req, options.production)));
        return sendError(res, 401, refusal.identifier, 'UNAUTHENTICATED');
      }
      res.locals.auth = { token, user } satisfies Authentication;
      next();
    } catch (error) {
      next(error);
    }
  };
}
