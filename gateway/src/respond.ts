import { ERROR_CATALOGUE, type ErrorIdentifier } from '@challenge/kit';
import type { Response } from 'express';

/** GraphQL error codes the gateway answers with outside Apollo's own pipeline. */
export type ErrorCode =
  'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'TOO_MANY_REQUESTS' | 'SERVICE_UNAVAILABLE';

/** A GraphQL-shaped error response (the web reads `extensions.identifier`), never a stack trace. */
export function sendError(
  res: Response,
  status: number,
  identifier: ErrorIdentifier,
  code: ErrorCode,
): void {
  res.status(status).json({
    errors: [{ message: ERROR_CATALOGUE[identifier], extensions: { code, identifier } }],
  });
}
