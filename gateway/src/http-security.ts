import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from '@challenge/kit';
import type { Request, RequestHandler } from 'express';
import { isPrivateAddress } from './geofence.ts';
import { sendError } from './respond.ts';

export function securityHeaders(production: boolean): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    // Images and media come from the object store's signed URLs (thumbnails, posters, videos),
    // which are http on a local or compose store: both directives allow http: (on an https
    // page a browser upgrades or blocks http content, so production stays https).
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data: blob: https: http:; media-src 'self' blob: https: http:; " +
        "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    );
    if (production)
      res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  };
}

/**
 * Same-origin only: no CORS headers, except for the configured origins (bearer-token clients;
 * cookies never authenticate a cross-origin request, see auth.ts).
 */
export function cors(allowedOrigins: string[]): RequestHandler {
  const allowed = new Set(allowedOrigins.map((origin) => new URL(origin).origin));
  return (req, res, next) => {
    if (!allowed.size) return next();
    res.vary('Origin');
    const origin = req.get('origin');
    if (!origin || !allowed.has(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
    if (req.method !== 'OPTIONS') return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader(
      'Access-Control-Allow-Headers',
      'authorization, content-type, apollo-require-preflight, x-apollo-operation-name, x-request-id, traceparent, tracestate',
    );
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may read the gateway's operational details (/metrics, the checks of /readyz): loopback and
 * private addresses (the cluster's scraper and probes), or a caller presenting METRICS_TOKEN as
 * its bearer token; not the public Ingress.
 */
export function isOperator(metricsToken: string | undefined): (req: Request) => boolean {
  const expected = metricsToken ? sha256(metricsToken) : null;
  return (req) => {
    if (isPrivateAddress(req.ip)) return true;
    const presented = bearerToken(req.get('authorization'));
    return Boolean(expected && presented && timingSafeEqual(sha256(presented), expected));
  };
}

/** /metrics: for operators only (isOperator); 403 for anyone else. */
export function metricsGuard(operator: (req: Request) => boolean): RequestHandler {
  return (req, res, next) => {
    if (operator(req)) return next();
    sendError(res, 403, 'access_denied', 'FORBIDDEN');
  };
}
