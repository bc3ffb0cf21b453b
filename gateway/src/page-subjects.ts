import type { ApolloServer } from '@apollo/server';
import {
  AppError,
  requestIdOf,
  type AuthUser,
  type Logger,
  type TokenVerifier,
} from '@challenge/kit';
import type { Request, Response } from 'express';
import type { GatewayContext } from './context.ts';
import type { PageLookup } from './web.ts';
import { cookiesAreSecure, sessionTokenFrom } from './cookies.ts';

/**
 * A page about one thing (a challenge, a person): the lookup the page itself makes, and the
 * identifiers that mean there is no such thing for this visitor. The page then still renders its
 * not-found text, but its HTTP status is 404 like any other page that does not exist (issue 22,
 * point 14), so that crawlers, link checkers and caches see it.
 */
interface PageSubject {
  path: RegExp;
  query: string;
  variables: (match: RegExpExecArray) => Record<string, string>;
  result: string;
  notFound: ReadonlySet<string>;
  /**
   * The image the page will show largest, from the same answer: the browser fetches it with the
   * page rather than after the page's own queries (docs/adr/0099).
   */
  image?: (result: SubjectResult) => unknown;
}

interface SubjectResult {
  status?: { identifier?: string | null };
  challenge?: { thumbnailUrl?: unknown } | null;
}

const SUBJECTS: readonly PageSubject[] = [
  {
    path: /^\/challenge\/([^/]+)\/detail\/?$/i,
    query:
      'query PageChallenge($slug: String!) { getChallengeBySlug(input: { slug: $slug }) { status { identifier } challenge { thumbnailUrl } } }',
    variables: (match) => ({ slug: match[1]! }),
    result: 'getChallengeBySlug',
    // Private or taken offline reads as not found to whoever may not see it (nothing leaks).
    notFound: new Set(['challenge_not_found', 'invalid_slug']),
    // The newest proof's poster, signed for this visitor (null when there is none or they may
    // not see it): the same URL the page's video query names in this signing window (ADR 81).
    image: (result) => result.challenge?.thumbnailUrl,
  },
  {
    path: /^\/profile\/([^/]+)(?:\/[^/]+)?\/?$/i,
    query:
      'query PageProfile($username: String!) { getUserProfile(username: $username) { status { identifier } } }',
    variables: (match) => ({ username: match[1]! }),
    result: 'getUserProfile',
    // A private profile exists: its page says so with 200.
    notFound: new Set(['user_not_found', 'invalid_input']),
  },
];

/** A page never waits longer than this for its lookup: then it goes out as 200. */
export const PAGE_LOOKUP_TIMEOUT_MS = 2_000;

export interface PageSubjectOptions {
  apollo: ApolloServer<GatewayContext>;
  verifier: TokenVerifier;
  logger: Logger;
  production: boolean;
  /** Whether this client may run a lookup now (its budget, rate-limit.ts); none: always. */
  mayLookUp?: (req: Request) => Promise<boolean>;
}

const NOTHING: PageLookup = { missing: false, image: null };

/**
 * What the page at `pathname` is about, for the visitor who asks: the page's own query, run
 * through the supergraph as that visitor (the session cookie's token, when it verifies; anonymous
 * otherwise). `missing` only on a definite answer: a failed lookup, a refused token, a lookup
 * slower than PAGE_LOOKUP_TIMEOUT_MS or a path that is no such page gives neither 404 nor an image.
 */
export function pageSubjectLookUp(options: PageSubjectOptions) {
  return async (pathname: string, req: Request, res: Response): Promise<PageLookup> => {
    for (const subject of SUBJECTS) {
      const match = subject.path.exec(pathname);
      if (!match) continue;
      try {
        if (options.mayLookUp && !(await options.mayLookUp(req))) return NOTHING;
        const context = await contextFor(req, res, options);
        let timer: NodeJS.Timeout | undefined;
        const response = await Promise.race([
          options.apollo.executeOperation(
            { query: subject.query, variables: subject.variables(match) },
            { contextValue: context },
          ),
          new Promise<null>((resolve) => {
            timer = setTimeout(() => resolve(null), PAGE_LOOKUP_TIMEOUT_MS);
          }),
        ]).finally(() => clearTimeout(timer));
        if (!response || response.body.kind !== 'single' || context.refusal) return NOTHING;
        const data = response.body.singleResult.data as Record<string, SubjectResult | null> | null;
        const result = data?.[subject.result];
        const identifier = result?.status?.identifier;
        const image = result ? subject.image?.(result) : null;
        return {
          missing: typeof identifier === 'string' && subject.notFound.has(identifier),
          image: typeof image === 'string' ? image : null,
        };
      } catch (error) {
        options.logger.warn({ err: error, pathname }, 'page subject lookup failed');
        return NOTHING;
      }
    }
    return NOTHING;
  };
}

async function contextFor(
  req: Request,
  res: Response,
  options: PageSubjectOptions,
): Promise<GatewayContext> {
  const cookieToken = sessionTokenFrom(req);
  let user: AuthUser | null = null;
  if (cookieToken) {
    try {
      user = await options.verifier.verify(cookieToken);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  return {
    requestId: requestIdOf(res),
    token: user ? cookieToken : null,
    user,
    clientIp: req.ip ?? 'unknown',
    secureCookies: cookiesAreSecure(req, options.production),
  };
}
