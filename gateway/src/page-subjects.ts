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
}

const SUBJECTS: readonly PageSubject[] = [
  {
    path: /^\/challenge\/([^/]+)\/detail\/?$/i,
    query:
      'query PageChallenge($slug: String!) { getChallengeBySlug(input: { slug: $slug }) { status { identifier } } }',
    variables: (match) => ({ slug: match[1]! }),
    result: 'getChallengeBySlug',
    // Private or taken offline reads as not found to whoever may not see it (nothing leaks).
    notFound: new Set(['challenge_not_found', 'invalid_slug']),
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
}

/**
 * Whether the page at `pathname` is about something that does not exist for the visitor who asks:
 * the page's own query, run through the supergraph as that visitor (the session cookie's token,
 * when it verifies; anonymous otherwise). Only a definite answer counts: a failed lookup, a
 * refused token, a lookup slower than PAGE_LOOKUP_TIMEOUT_MS or a path that is no such page gives
 * false, and the page goes out as 200.
 */
export function pageSubjectMissing(options: PageSubjectOptions) {
  return async (pathname: string, req: Request, res: Response): Promise<boolean> => {
    for (const subject of SUBJECTS) {
      const match = subject.path.exec(pathname);
      if (!match) continue;
      try {
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
        if (!response || response.body.kind !== 'single' || context.refusal) return false;
        const data = response.body.singleResult.data as Record<
          string,
          { status?: { identifier?: string | null } } | null
        > | null;
        const identifier = data?.[subject.result]?.status?.identifier;
        return typeof identifier === 'string' && subject.notFound.has(identifier);
      } catch (error) {
        options.logger.warn({ err: error, pathname }, 'page subject lookup failed');
        return false;
      }
    }
    return false;
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
