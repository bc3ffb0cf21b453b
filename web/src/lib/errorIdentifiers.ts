import { ERROR_IDENTIFIERS, type ErrorIdentifier } from '@challenge/kit/errors';

/**
 * Every identifier the server may put in `status.identifier`: the server's own catalogue (product
 * spec, section 8), shared as a contract. Each one has a text under `errors.<identifier>` in both
 * locale files; a test enforces that, so a new server identifier cannot ship untranslated.
 */
export const SERVER_ERROR_IDENTIFIERS: readonly ErrorIdentifier[] = ERROR_IDENTIFIERS;

export type ServerErrorIdentifier = ErrorIdentifier;

export function isServerErrorIdentifier(value: unknown): value is ServerErrorIdentifier {
  return (
    typeof value === 'string' && (SERVER_ERROR_IDENTIFIERS as readonly string[]).includes(value)
  );
}
