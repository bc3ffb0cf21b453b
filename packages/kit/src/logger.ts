import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import type { RequestHandler, Response } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
import { tracingEnabled } from './tracing.ts';

export type { Logger };

/**
 * JSON logs to stdout (docs/adr/0080). Every line written while a request or an event is handled
 * carries its `requestId` (or `eventId`), and `traceId`/`spanId` when tracing is on. Personal data
 * and secrets stay out twice over: fields known to hold them are redacted, and every finished line
 * goes through `scrubSecrets`, which catches what reaches a message, an error or an unknown field
 * (a database error quoting the e-mail address that collided, say).
 */

/** Fields that hold secrets or personal data, at the top and one level down. */
const SENSITIVE_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'code',
  'secret',
  'email',
  'iban',
  'bic',
  'authorization',
  'cookie',
];

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  ...SENSITIVE_FIELDS,
  ...SENSITIVE_FIELDS.map((field) => `*.${field}`),
];

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
/** A secret in a URL's query: magic links, reset links, signed e-mail links. */
const SECRET_PARAM = /([?&](?:token|code|signature|sig|key)=)[^&\s"\\]+/gi;
/** Country, check digits, 11 to 30 letters or digits, optionally grouped by spaces. */
const IBAN_SHAPED = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;

/** The ISO 13616 check: the rearranged IBAN as a number, mod 97, is 1. */
function isIban(candidate: string): boolean {
  const compact = candidate.replaceAll(' ', '');
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' && char <= 'Z' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** Replaces e-mail addresses, IBANs, JWTs, bearer tokens and secrets in URLs in a log line. */
export function scrubSecrets(line: string): string {
  return line
    .replace(JWT, '[jwt]')
    .replace(BEARER, '$1[redacted]')
    .replace(SECRET_PARAM, '$1[redacted]')
    .replace(EMAIL, '[email]')
    .replace(IBAN_SHAPED, (match) => (isIban(match) ? '[iban]' : match));
}

/** Writes each finished line scrubbed; stdout unless a destination (a test's capture) is given. */
function scrubbingStream(destination: DestinationStream): DestinationStream {
  return { write: (line: string) => destination.write(scrubSecrets(line)) };
}

/** What the current request or event adds to each line. */
const logScope = new AsyncLocalStorage<Record<string, string>>();

/** Runs `work` with `fields` (e.g. an event's id) on every line logged meanwhile. */
export function withLogFields<T>(fields: Record<string, string>, work: () => T): T {
  return logScope.run({ ...logScope.getStore(), ...fields }, work);
}

function scopeFields(): Record<string, string> {
  const fields = logScope.getStore();
  const span = tracingEnabled() ? trace.getActiveSpan() : undefined;
  if (!span) return fields ?? {};
  const { traceId, spanId } = span.spanContext();
  return { ...fields, traceId, spanId };
}

export function createLogger(
  service: string,
  level: string,
  destination: DestinationStream = pino.destination({ dest: 1, sync: true }),
): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      mixin: scopeFields,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    scrubbingStream(destination),
  );
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's `x-request-id` when it is a sane one, otherwise a new one. */
export const requestIdOf = (res: Response): string => res.locals.requestId as string;

/**
 * First middleware of every HTTP app: gives the request its id (answered in `x-request-id`), puts
 * it on every line logged while the request is handled, and logs the request at debug when it
 * ends (path without its query, status, duration).
 */
export function requestIds(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('x-request-id', requestId);
    withLogFields({ requestId }, () => {
      if (logger.isLevelEnabled('debug')) {
        const started = performance.now();
        const path = req.originalUrl.split('?')[0];
        // An emitter's listener runs outside the scope: it is entered again for the line.
        res.once('close', () =>
          withLogFields({ requestId }, () =>
            logger.debug(
              {
                method: req.method,
                path,
                status: res.statusCode,
                ms: Math.round(performance.now() - started),
              },
              'request',
            ),
          ),
        );
      }
      next();
    });
  };
}
