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

/** Media's resumable (tus) endpoint (services/media/src/http/tus.ts, TUS_PATH). */
export const MEDIA_TUS_PATH = '/uploads/tus';
/** Where the gateway serves it. */
export const PUBLIC_TUS_PATH = '/api/uploads/tus';

/** Request headers media reads besides the body's framing (tus's own). */
const TUS_REQUEST_HEADERS = ['upload-length', 'upload-offset', 'upload-metadata', 'tus-resumable'];

/** The headers of the client's request that media needs: the body's framing, nothing else. */
function forwardedHeaders(req: Request, auth: Authentication, requestId: string) {
  const headers: Record<string, string> = { 'x-request-id': requestId };
  const type = req.get('content-type');
  if (type) headers['content-type'] = type;
  const length = req.get('content-length');
  if (length) headers['content-length'] = length;
  else if (req.get('transfer-encoding')) headers['transfer-encoding'] = 'chunked';
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  for (const name of TUS_REQUEST_HEADERS) {
    const value = req.get(name);
    if (value !== undefined) headers[name] = value;
  }
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

const RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'cache-control',
  'location',
  'upload-offset',
  'upload-length',
  'upload-video-id',
  'upload-expires',
  'tus-resumable',
  'tus-version',
  'tus-extension',
  'tus-max-size',
] as const;

function copyHeaders(from: IncomingHttpHeaders, res: Response): void {
  for (const name of RESPONSE_HEADERS) {
    const value = from[name];
    if (value !== undefined) res.setHeader(name, value);
  }
}

/**
 * Pipes the request's body, as it arrives, to media at `target` with the caller's token, and
 * media's answer back. Nothing is buffered beyond the sockets' own windows; back-pressure
 * reaches the browser.
 */
function pipeToMedia(
  req: Request,
  res: Response,
  target: URL,
  logger: Logger,
  extraHeaders: Record<string, string> = {},
): void {
  const auth = res.locals.auth as Authentication;
  const requestId = req.get('x-request-id') ?? randomUUID();
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstream = send(target, {
    method: req.method,
    headers: { ...forwardedHeaders(req, auth, requestId), ...extraHeaders },
  });
  upstream.on('response', (answer) => {
    res.status(answer.statusCode ?? 502);
    copyHeaders(answer.headers, res);
    // No `connection: close` while the body still arrives: Node would destroy the socket as soon
    // as the answer is written, and the browser, still sending, would see a reset instead of the
    // answer ("File is too large"). lingerThenClose drains for a moment, then cuts it.
    answer.pipe(res);
    res.once('finish', () => {
      upstream.destroy();
      lingerThenClose(req);
    });
  });
  upstream.on('error', (error) => {
    if (res.headersSent) return; // media answered and closed early: the answer is on its way.
    logger.warn({ err: error, requestId }, 'upload forwarding to media failed');
    sendError(res, 502, 'upload_error', 'SERVICE_UNAVAILABLE');
    lingerThenClose(req);
  });
  // The browser went away: media's stream errors (a multipart upload is aborted; a resumable
  // one keeps its stored parts).
  req.on('aborted', () => upstream.destroy(new Error('client aborted the upload')));
  req.pipe(upstream);
}

/**
 * GraphQL multipart requests (spec section 7) bypass Apollo: the query planner cannot carry a
 * file, and parsing the body here would buffer it. After the geofence, the rate limit and the
 * session (cookie or bearer) have run as for any /graphql request, the request is piped to
 * media's multipart endpoint. Every other request goes on to Apollo.
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
    pipeToMedia(req, res, target, options.logger);
  };
}

/**
 * Resumable uploads (tus, ADR 36) under PUBLIC_TUS_PATH, after the same geofence, rate limit and
 * session as /graphql: piped to media's tus endpoint, which builds its Location on our prefix.
 */
export function forwardTus(options: { mediaUrl: string; logger: Logger }): RequestHandler {
  return (req, res) => {
    // req.url is the path below the mount point: "/" or "/<id>" (media checks the id).
    const below = req.url.split('?')[0] ?? '/';
    const target = new URL(`${MEDIA_TUS_PATH}${below === '/' ? '' : below}`, options.mediaUrl);
    pipeToMedia(req, res, target, options.logger, { 'x-forwarded-prefix': PUBLIC_TUS_PATH });
  };
}
