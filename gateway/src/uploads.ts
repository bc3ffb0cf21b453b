import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { GATEWAY_SECRET_HEADER, requestIdOf, traceHeaders, type Logger } from '@challenge/kit';
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

/** Where the gateway sends a request on to media, and with which credential (docs/adr/0069). */
export interface MediaTarget {
  mediaUrl: string;
  gatewaySecret: string;
  logger: Logger;
}

/**
 * The headers media gets: the gateway's credential, the request id, the caller's token and the
 * body's framing; nothing else of the client's request (a client's own credential header
 * included).
 */
function forwardedHeaders(
  req: Request,
  auth: Authentication,
  requestId: string,
  gatewaySecret: string,
) {
  const headers: Record<string, string> = {
    'x-request-id': requestId,
    [GATEWAY_SECRET_HEADER]: gatewaySecret,
    // The upload's trace goes on in media (docs/adr/0080).
    ...traceHeaders(),
  };
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
  media: MediaTarget,
  extraHeaders: Record<string, string> = {},
): void {
  const { logger } = media;
  const auth = res.locals.auth as Authentication;
  const requestId = requestIdOf(res);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstream = send(target, {
    method: req.method,
    headers: { ...forwardedHeaders(req, auth, requestId, media.gatewaySecret), ...extraHeaders },
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
export function forwardUploads(media: MediaTarget): RequestHandler {
  // Resolved at the first upload: a gateway configured without media still serves the rest.
  let target: URL | null = null;
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) {
      next();
      return;
    }
    target ??= new URL(MEDIA_UPLOAD_PATH, media.mediaUrl);
    pipeToMedia(req, res, target, media);
  };
}

/**
 * Media's upload ids: Prisma's uuid() (services/media/prisma/schema.prisma,
 * VideoUploadSession.id), lower-case hex. Nothing else names an upload.
 */
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The tus methods on the collection (creation, discovery) and on one upload. */
const COLLECTION_METHODS = new Set(['POST', 'OPTIONS']);
const UPLOAD_METHODS = new Set(['HEAD', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Media's path for a tus request, from `below` (the request's path below PUBLIC_TUS_PATH, as the
 * client wrote it): MEDIA_TUS_PATH for the collection, MEDIA_TUS_PATH/<id> for an upload whose id
 * has exactly media's format; null for anything else. The path is rebuilt from these parts only,
 * never copied: a dot segment, an encoded slash or a backslash can never reach media (issue 18).
 */
export function mediaTusPath(method: string, below: string): string | null {
  const path = below.split('?')[0] ?? '';
  if (path === '/' || path === '') return COLLECTION_METHODS.has(method) ? MEDIA_TUS_PATH : null;
  const id = path.slice(1);
  return UPLOAD_ID.test(id) && UPLOAD_METHODS.has(method) ? `${MEDIA_TUS_PATH}/${id}` : null;
}

/**
 * First on PUBLIC_TUS_PATH, before the session and the upload limit: a path that names no tus
 * resource answers 404 at once, its body left unread.
 */
export function tusPathCheck(): RequestHandler {
  return (req, res, next) => {
    if (mediaTusPath(req.method, req.url) !== null) return next();
    sendError(res, 404, 'not_found', 'NOT_FOUND');
    lingerThenClose(req);
  };
}

/**
 * Resumable uploads (tus, ADR 36) under PUBLIC_TUS_PATH, after tusPathCheck and the same
 * geofence, rate limit and session as /graphql: piped to media's tus endpoint, which builds its
 * Location on our prefix.
 */
export function forwardTus(media: MediaTarget): RequestHandler {
  return (req, res) => {
    const path = mediaTusPath(req.method, req.url);
    if (path === null) {
      // tusPathCheck comes first; this is its backstop.
      sendError(res, 404, 'not_found', 'NOT_FOUND');
      lingerThenClose(req);
      return;
    }
    const target = new URL(path, media.mediaUrl);
    pipeToMedia(req, res, target, media, { 'x-forwarded-prefix': PUBLIC_TUS_PATH });
  };
}
