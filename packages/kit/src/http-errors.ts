import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ERROR_CATALOGUE } from './errors.ts';

/**
 * Errors outside GraphQL (a malformed JSON body, a body over the limit): a catalogue error as
 * JSON, never Express's default HTML page with a stack trace. Its own module, so that the gateway
 * uses it without loading the subgraphs' Apollo packages.
 */
export function httpErrorHandler(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: unknown })?.status;
    const clientError = typeof status === 'number' && status >= 400 && status < 500;
    if (!clientError) logger.error({ err: error }, 'unexpected HTTP error');
    const identifier = clientError ? 'invalid_input' : 'generic_error';
    res.status(clientError ? status : 500).json({
      errors: [
        {
          message: ERROR_CATALOGUE[identifier],
          extensions: { code: clientError ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR', identifier },
        },
      ],
    });
  };
}
