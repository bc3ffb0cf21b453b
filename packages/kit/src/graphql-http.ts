import {
  HeaderMap,
  type ApolloServer,
  type BaseContext,
  type ContextFunction,
} from '@apollo/server';
import type { Request, RequestHandler, Response } from 'express';

/**
 * Apollo Server on an Express route, as `@as-integrations/express5` mounts it, minus what it cost
 * per request and nobody used (docs/adr/0096): the legacy `url.parse` of every URL for its query
 * string, and Express's `res.send`, which hashes every body for an ETag (a GraphQL answer to a
 * POST is never revalidated) and checks the request's freshness. The body goes out in one
 * `res.end` with its length; streamed (incremental) answers are written as they come.
 */
export function graphqlHttp<TContext extends BaseContext>(
  server: ApolloServer<TContext>,
  context: ContextFunction<[{ req: Request; res: Response }], TContext>,
): RequestHandler {
  server.assertStarted('graphqlHttp()');
  return async (req, res) => {
    if (!('body' in req)) {
      res.status(500).end('`req.body` is not set: express.json() must come before Apollo.');
      return;
    }
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: req.method.toUpperCase(),
        headers,
        search: searchOf(req.url),
        body: req.body,
      },
      context: () => context({ req, res }),
    });
    for (const [key, value] of answer.headers) res.setHeader(key, value);
    res.statusCode = answer.status ?? 200;
    if (answer.body.kind === 'complete') {
      res.setHeader('content-length', Buffer.byteLength(answer.body.string));
      res.end(req.method === 'HEAD' ? undefined : answer.body.string);
      return;
    }
    for await (const chunk of answer.body.asyncIterator) {
      res.write(chunk);
      (res as Response & { flush?: () => void }).flush?.();
    }
    res.end();
  };
}

/** The query string of a request target, with its `?` (as `url.parse(...).search`), or ''. */
export function searchOf(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return '';
  const end = url.indexOf('#', start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}
