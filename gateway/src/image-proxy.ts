import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Logger } from '@challenge/kit';
import type { RequestHandler } from 'express';

/** The spec's image-resizing path (section 7); media serves it (docs/adr/0039). */
export const IMAGE_PATH = '/_ipx';

/** What the browser may see of media's answer: nothing else (no cookies, no server details). */
const PASSED_HEADERS = [
  'content-type',
  'content-length',
  'cache-control',
  'etag',
  'x-cache',
  'x-content-type-options',
];

/**
 * Forwards GET and HEAD under /_ipx to media as they are and streams the answer back (never
 * buffered). The images are public (avatars), so no session and no geofence: the bounded sizes
 * and media's cache keep the cost per request small.
 */
export function imageProxy(mediaGraphqlUrl: string, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const ifNoneMatch = req.get('if-none-match');
    try {
      // originalUrl always starts with /_ipx here: the target stays on media's origin.
      const target = new URL(req.originalUrl, mediaGraphqlUrl);
      const response = await fetch(target, {
        method: req.method,
        headers: ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {},
        signal: AbortSignal.timeout(30_000),
      });
      res.status(response.status);
      for (const name of PASSED_HEADERS) {
        const value = response.headers.get(name);
        if (value !== null) res.set(name, value);
      }
      if (!response.body || req.method === 'HEAD') return void res.end();
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), res);
    } catch (error) {
      logger.warn({ err: error, path: req.path }, 'media did not answer an image request');
      if (!res.headersSent) res.status(502).type('text/plain').send('Image unavailable');
      else res.destroy();
    }
  };
}
