import { pipeline } from 'node:stream/promises';
import type { Logger } from '@challenge/kit';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { ImageResizer } from '../domain/image-resizer.ts';
import { parseImageRequest } from '../domain/images.ts';

/**
 * Public path prefix of resized images; the gateway forwards it here on a path it rebuilt from the
 * checked modifiers and key, with its credential.
 */
export const IPX_PATH = '/_ipx';

/**
 * A rendition's bytes never change (its key names the source version), and an avatar's URL names
 * its picture (a new upload gets a new key): browsers keep it a month, then revalidate it by its
 * ETag (docs/adr/0081). A month, not forever: a removed picture stops being served in time.
 */
const CACHE_CONTROL = 'public, max-age=2592000, stale-while-revalidate=86400';

function answer(res: Response, status: number, text: string) {
  res.status(status).type('text/plain').set('cache-control', 'no-store').send(text);
}

/** `fromGateway`: the gateway's credential check (docs/adr/0069), before anything else. */
export function ipxRoutes(resizer: ImageResizer, logger: Logger, fromGateway: RequestHandler) {
  const handle = async (req: Request, res: Response) => {
    // req.path: /<modifiers>/<source key>, still percent-encoded.
    const [, modifiers = '', ...rest] = req.path.split('/');
    let source: string;
    try {
      source = decodeURIComponent(rest.join('/'));
    } catch {
      return answer(res, 400, 'Bad image request');
    }
    const parsed = parseImageRequest(modifiers, source);
    if (!parsed.ok) {
      return parsed.problem === 'not_found'
        ? answer(res, 404, 'Not found')
        : answer(res, 400, 'Bad image request');
    }
    try {
      const rendition = await resizer.render(parsed.request);
      if (rendition.kind === 'not_found') return answer(res, 404, 'Not found');
      if (rendition.kind === 'unsupported') return answer(res, 415, 'Unsupported image');
      res.set({
        'content-type': 'image/webp',
        'cache-control': CACHE_CONTROL,
        etag: rendition.etag,
        'x-cache': rendition.kind,
        'x-content-type-options': 'nosniff',
      });
      if (req.headers['if-none-match'] === rendition.etag) return void res.status(304).end();
      if (rendition.kind === 'miss') return void res.send(rendition.body);
      res.set('content-length', String(rendition.size));
      if (req.method === 'HEAD') return void res.end();
      await pipeline(await rendition.body(), res);
    } catch (error) {
      logger.error({ err: error, path: req.path }, 'image resizing failed');
      if (!res.headersSent) answer(res, 500, 'Image resizing failed');
      else res.destroy();
    }
  };
  return (app: Express) => {
    app.get(`${IPX_PATH}/*path`, fromGateway, (req, res) => {
      // Express strips nothing here: hand the handler the part after the prefix.
      const inner = Object.create(req, { path: { value: req.path.slice(IPX_PATH.length) } });
      void handle(inner as Request, res);
    });
  };
}
