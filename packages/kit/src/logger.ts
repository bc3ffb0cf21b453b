import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs to stdout; secrets that may sit in objects we log are redacted. */
export function createLogger(service: string, level: string): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.token',
        '*.accessToken',
        '*.code',
      ],
      censor: '[redacted]',
    },
  });
}
