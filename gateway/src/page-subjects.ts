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
import type { PageDataEntry, PageLookup, PageQueries } from './web.ts';
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
  /**
   * The web page's own queries for this subject (by operation name, their text from the web
   * build: PageQueries), run in place of `query` when the build names them all: their answers go
   * into the page for its first render (docs/adr/0100), so that it does not ask them again.
   */
  pageQueries?: readonly string[];
  /** The values of the page's preview, from the first page query's answer (web.ts). */
  preview?: (result: SubjectResult) => Readonly<Record<string, unknown>> | null | undefined;
}

interface SubjectResult {
  status?: { success?: boolean | null; identifier?: string | null };
  challenge?: {
    [field: string]: unknown;
    thumbnailUrl?: unknown;
    challengeVideos?: readonly { thumbnailUrl?: unknown }[] | null;
  } | null;
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
    // The page's video query names it as its newest video's `thumbnailUrl`.
    image: (result) =>
      result.challenge?.thumbnailUrl ?? result.challenge?.challengeVideos?.[0]?.thumbnailUrl,
    pageQueries: ['ChallengeBySlug', 'ChallengeVideos'],
    preview: (result) => result.challenge,
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

const NOTHING: PageLookup = { missing: false, image: null, data: [] };

/**
 * What the page at `pathname` is about, for the visitor who asks: the page's own query, run
 * through the supergraph as that visitor (the session cookie's token, when it verifies; anonymous
 * otherwise). `missing` only on a definite answer: a failed lookup, a refused token, a lookup
 * slower than PAGE_LOOKUP_TIMEOUT_MS or a path that is no such page gives neither 404 nor an image.
 */
export function pageSubjectLookUp(options: PageSubjectOptions) {
  return async (
    pathname: string,
    req: Request,
    res: Response,
    queries: PageQueries = new Map(),
  ): Promise<PageLookup> => {
    for (const subject of SUBJECTS) {
      const match = subject.path.exec(pathname);
      if (!match) continue;
      try {
        if (options.mayLookUp && !(await options.mayLookUp(req))) return NOTHING;
        const context = await contextFor(req, res, options);
        const variables = subject.variables(match);
        // The page's own queries when the build names them (the first answers whether the
        // subject exists), else the lookup's; all as this visitor, at once.
        const named = subject.pageQueries?.map((name) => ({ name, query: queries.get(name) }));
        const operations =
          named && named.every((operation) => operation.query !== undefined)
            ? (named as { name: string; query: string }[])
            : [{ name: null, query: subject.query }];
        let timer: NodeJS.Timeout | undefined;
        const responses = await Promise.race([
          Promise.all(
            operations.map(({ query }) =>
              options.apollo.executeOperation({ query, variables }, { contextValue: context }),
            ),
          ),
          new Promise<null>((resolve) => {
            timer = setTimeout(() => resolve(null), PAGE_LOOKUP_TIMEOUT_MS);
          }),
        ]).finally(() => clearTimeout(timer));
        if (!responses || context.refusal) return NOTHING;
        const answers = responses.map((response) => {
          if (response.body.kind !== 'single') return { result: null, clean: false, data: null };
          const { data, errors } = response.body.singleResult;
          const result = (data as Record<string, SubjectResult | null> | null | undefined)?.[
            subject.result
          ];
          return { result: result ?? null, clean: !errors?.length, data };
        });
        const identifier = answers[0]?.result?.status?.identifier;
        const image = answers
          .map(({ result }) => (result ? subject.image?.(result) : null))
          .find((candidate) => typeof candidate === 'string');
        // Only a whole, successful answer goes into the page: the visitor's own view, exactly
        // what their browser's query would have been told.
        const data: PageDataEntry[] = answers.flatMap(({ result, clean, data }, index) => {
          const name = operations[index]?.name;
          return name && clean && result?.status?.success === true
            ? [{ operation: name, variables, data }]
            : [];
        });
        const first = answers[0]?.result;
        return {
          missing: typeof identifier === 'string' && subject.notFound.has(identifier),
          image: typeof image === 'string' ? image : null,
          data,
          // From the same answer as the data, only when it went into the page.
          preview:
            first && data[0]?.operation === operations[0]?.name ? subject.preview?.(first) : null,
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
