import type { GraphQLFormattedError } from 'graphql';
import type { TFunction } from 'i18next';
import { isServerErrorIdentifier } from './errorIdentifiers';

/**
 * The text for a server error: the translated `errors.<identifier>` when the identifier is known,
 * else the server's own message, else the generic error text.
 */
export function errorText(
  t: TFunction,
  identifier: string | null | undefined,
  message?: string | null,
): string {
  const normalized = identifier?.trim().toLowerCase();
  if (isServerErrorIdentifier(normalized)) return t(`errors.${normalized}`);
  const raw = message?.trim();
  return raw ? raw : t('errors.generic_error');
}

function identifierOf(error: GraphQLFormattedError): string | undefined {
  const candidate = error.extensions?.['identifier'] ?? error.extensions?.['code'];
  return typeof candidate === 'string' ? candidate : undefined;
}

/** One line for a list of GraphQL errors; distinct messages are joined with a vertical bar. */
export function describeGraphQLErrors(
  t: TFunction,
  errors: ReadonlyArray<GraphQLFormattedError>,
): string {
  const texts = errors.map((error) => errorText(t, identifierOf(error), error.message));
  const distinct = [...new Set(texts)];
  return distinct.length > 0 ? distinct.join(' | ') : t('errors.generic_error');
}
