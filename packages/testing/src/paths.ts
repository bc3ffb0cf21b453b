import { request } from 'node:http';

/**
 * Raw HTTP paths for tests of what a server does with a path as the client wrote it. `fetch`
 * (and `new URL`) resolve dot segments before anything is sent, so a test that used them could
 * never send `/a/../b`: these helpers put the path on the wire byte for byte.
 */

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with `path` exactly as given (node:http sends it unchanged), on a new connection. */
export function rawRequest(
  origin: string,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  },
): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Ways to write a parent-directory segment that some layer (a URL parser, a router, a file
 * server) may resolve: plain, percent-encoded in any case, half-encoded, double-encoded, overlong
 * UTF-8, and with a path parameter.
 */
export const DOT_SEGMENTS = [
  '..',
  '%2e%2e',
  '%2E%2E',
  '%2E%2e',
  '.%2e',
  '%2e.',
  '.%2E',
  '%252e%252e',
  '%c0%ae%c0%ae',
  '..;',
] as const;

/** Separators between the segments: a slash, an encoded slash (any case), backslashes. */
export const SEPARATORS = ['/', '%2f', '%2F', '\\', '%5c', '%255c'] as const;

/** What must never be reached from outside through a forwarding path: a service's own endpoints. */
export const INTERNAL_TARGETS = ['graphql', 'metrics', 'readyz', 'healthz', 'uploads/graphql'];

/**
 * Paths that climb out of `prefix` (which ends with `/`) to `target`: every dot segment with a
 * slash, and `..` with every separator, three levels up (more than any prefix is deep).
 */
export function traversalPaths(prefix: string, targets = INTERNAL_TARGETS): string[] {
  const climbs = [
    ...DOT_SEGMENTS.map((dots) => `${dots}/${dots}/${dots}/`),
    ...SEPARATORS.filter((separator) => separator !== '/').map(
      (separator) => `..${separator}..${separator}..${separator}`,
    ),
  ];
  return targets.flatMap((target) => climbs.map((climb) => `${prefix}${climb}${target}`));
}

/**
 * Markers of an internal endpoint's answer, which no forwarding path may ever return: a
 * subgraph's SDL or entities, Prometheus text, readiness details.
 */
export const INTERNAL_ANSWER = /_service|_entities|"sdl"|# HELP |# TYPE |"checks"|"data"\s*:/;
