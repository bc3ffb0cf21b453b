import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { randomUUID } from 'node:crypto';
import type { Logger } from '@challenge/kit';
import type { Request, RequestHandler, Response } from 'express';
import type { Authentication } from './auth.ts';
import { sendError } from './respond.ts';

/** Media's multipart endpoint (services/media/src/http/multipart.ts, UPLOAD_PATH). */
export const MEDIA_UPLOAD_PATH = '/uploads/graphql';

/**
 * After the answer went out before the client finished sending (a refusal, "File is too
 * large"), how long the rest of the body may still arrive before the connection is cut.
 */
const LINGER_MS = 2_000;

/** The headers of the client's request that media needs: the body's framing, nothing else. */
function forwardedHeaders(req: Request, auth: Authentication, requestId: string) {
  const headers: Record<string, string> = {
    'content-type': req.get('content-type') ?? '',
    'x-request-id': requestId,
  };
  const length = req.get('content-length');
  if (length) headers['content-length'] = length;
  else headers['transfer-encoding'] = 'chunked';
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  return headers;
}

/** Stops reading a body whose answer is out: drain for a moment, then cut the connection. */
export function lingerThenClose(req: Request): void {
  if (req.complete) return;
  req.unpipe();
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
}

const RESPONSE_HEADERS = ['content-type', 'content-length'] as const;

function copyHeaders(from: IncomingHttpHeaders, res: Response): void {
  for (const name of RESPONSE_HEADERS) {
    const value = from[name];
    if (value !== undefined) res.setHeader(name, value);
  }
}

/**
 * GraphQL multipart requests (spec section 7) bypass Apollo: the query planner cannot carry a
 * file, and parsing the body here would buffer it. After the geofence, the rate limit and the
 * session (cookie or bearer) have run as for any /graphql request, the request's body is piped
 * as it arrives to media's multipart endpoint, with the caller's token, and media's answer piped
 * back. Nothing is buffered beyond the sockets' own windows; back-pressure reaches the browser.
 * Every other request goes on to Apollo.
 */
export function forwardUploads(options: { mediaUrl: string; logger: Logger }): RequestHandler {
  // Resolved at the first upload: a gateway configured without media still serves the rest.
  let target: URL | null = null;
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) {
      next();
      return;
    }
    target ??= new URL(MEDIA_UPLOAD_PATH, options.mediaUrl);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const auth = res.locals.auth as Authentication;
    const requestId = req.get('x-request-id') ?? randomUUID();
    const upstream = send(target, {
      method: 'POST',
      headers: forwardedHeaders(req, auth, requestId),
    });
    upstream.on('response', (answer) => {
      res.status(answer.statusCode ?? 502);
      copyHeaders(answer.headers, res);
      if (!req.complete) res.setHeader('connection', 'close');
      answer.pipe(res);
      res.once('finish', () => {
        upstream.destroy();
        lingerThenClose(req);
      });
    });
    upstream.on('error', (error) => {
      if (res.headersSent) return; // media answered and closed early: the answer is on its way.
      options.logger.warn({ err: error, requestId }, 'upload forwarding to media failed');
      sendError(res, 502, 'upload_error', 'SERVICE_UNAVAILABLE');
      lingerThenClose(req);
    });
    // The browser went away: media's stream errors, and media aborts its multipart upload.
    req.on('aborted', () => upstream.destroy(new Error('client aborted the upload')));
    req.pipe(upstream);
  };
}
