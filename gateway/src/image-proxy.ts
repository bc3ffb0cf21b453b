import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { GATEWAY_SECRET_HEADER, traceHeaders, type Logger } from '@challenge/kit';
import type { RequestHandler, Response } from 'express';

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
 * The grammar of an image path, `/<modifiers>/<source key>` (docs/adr/0039): modifiers such as
 * `w_320&f_webp&q_80` (or joined by `,`), a key of two to five segments of letters, digits, `_`,
 * `-` and `.` that never start with a dot. Media checks the values (widths, qualities, which keys
 * are public); the gateway only lets through what has this shape.
 */
const MODIFIERS = /^[a-z]+_[a-z0-9]+(?:[&,][a-z]+_[a-z0-9]+){0,7}$/;
const KEY_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

export type ImagePath = { ok: true; path: string } | { ok: false; status: 400 | 404 };

/**
 * Media's path for an image request, from `below` (the path below IMAGE_PATH as the client wrote
 * it): each part percent-decoded once, checked against the grammar, and the path rebuilt from the
 * checked parts, never copied. So no dot segment, encoded slash, backslash or double encoding can
 * reach media's other endpoints (issue 18). Bad modifiers: 400; anything else: 404 (as media).
 */
export function mediaImagePath(below: string): ImagePath {
  const [empty, rawModifiers = '', ...rawKey] = (below.split('?')[0] ?? '').split('/');
  if (empty !== '' || rawKey.length < 2 || rawKey.length > 5) return { ok: false, status: 404 };
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return null;
    }
  };
  const modifiers = decode(rawModifiers);
  if (modifiers === null || !MODIFIERS.test(modifiers)) return { ok: false, status: 400 };
  const key = rawKey.map(decode);
  if (!key.every((segment) => segment !== null && KEY_SEGMENT.test(segment))) {
    return { ok: false, status: 404 };
  }
  // Every character left is one a path carries as it is: nothing to encode.
  return { ok: true, path: `${IMAGE_PATH}/${modifiers}/${key.join('/')}` };
}

function refuse(res: Response, status: 400 | 404) {
  res
    .status(status)
    .type('text/plain')
    .set('cache-control', 'no-store')
    .send(status === 400 ? 'Bad image request' : 'Not found');
}

/**
 * Forwards GET and HEAD under /_ipx to media, on the path mediaImagePath rebuilt and with the
 * gateway's credential (docs/adr/0069), and streams the answer back (never buffered). The images
 * are public (avatars), so no session and no geofence: the bounded sizes and media's cache keep
 * the cost per request small.
 */
export function imageProxy(media: {
  mediaUrl: string;
  gatewaySecret: string;
  logger: Logger;
}): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const image = mediaImagePath(req.url);
    if (!image.ok) return refuse(res, image.status);
    const ifNoneMatch = req.get('if-none-match');
    try {
      const response = await fetch(new URL(image.path, media.mediaUrl), {
        method: req.method,
        headers: {
          [GATEWAY_SECRET_HEADER]: media.gatewaySecret,
          ...traceHeaders(),
          ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
        },
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
      media.logger.warn({ err: error, path: image.path }, 'media did not answer an image request');
      if (!res.headersSent) res.status(502).type('text/plain').send('Image unavailable');
      else res.destroy();
    }
  };
}
