import { ZodError } from 'zod';
import type { Logger } from 'pino';
import { AppError, ERROR_CATALOGUE, type ErrorIdentifier } from './errors.ts';

/** The `status { success identifier message }` every result carries. */
export interface Status {
  success: boolean;
  identifier: string;
  message: string;
}

export const okStatus = (message = 'OK'): Status => ({ success: true, identifier: 'ok', message });

export const failStatus = (identifier: ErrorIdentifier, message?: string): Status => ({
  success: false,
  identifier,
  message: message ?? ERROR_CATALOGUE[identifier],
});

export type Envelope<T extends object> = { status: Status } & Partial<T>;

/**
 * Runs a resolver body and maps its outcome to the envelope: data with an ok status, an AppError
 * or invalid input to its identifier, anything else to generic_error (logged, never leaked).
 */
export async function envelope<T extends object>(
  logger: Logger,
  run: () => Promise<T>,
): Promise<Envelope<T>> {
  try {
    const data = await run();
    return { status: okStatus(), ...data };
  } catch (error) {
    return { status: statusForError(logger, error) } as Envelope<T>;
  }
}

export function statusForError(logger: Logger, error: unknown): Status {
  if (error instanceof AppError) return failStatus(error.identifier, error.message);
  if (error instanceof ZodError) {
    const first = error.issues[0];
    const where = first?.path.length ? `${first.path.join('.')}: ` : '';
    return failStatus('invalid_input', first ? `${where}${first.message}` : undefined);
  }
  logger.error({ err: error }, 'unexpected error in resolver');
  return failStatus('generic_error');
}
