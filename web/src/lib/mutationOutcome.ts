import { CombinedGraphQLErrors, ServerError } from '@apollo/client';
import type { TFunction } from 'i18next';
import { describeGraphQLErrors, errorText } from './errorMessages';
import type { ResponseStatus } from './graphql';

/** What a mutation came to: the successful result, or why it failed. */
export type MutationOutcome<TResult> =
  | { ok: true; result: TResult }
  | {
      ok: false;
      /** The envelope of an unsuccessful answer; null when the request itself failed. */
      status: ResponseStatus | null;
      /** The transport or GraphQL error, if any. */
      error: unknown;
      /** The unsuccessful answer itself, for what it says beyond its status. */
      result?: TResult | null;
    };

/**
 * Runs a mutation (errorPolicy `all`: errors come back alongside data, but a transport failure may
 * still throw) and reduces it to success or failure by the result's `status.success`.
 */
export async function settleMutation<TData, TResult extends { status: ResponseStatus }>(
  run: () => Promise<{ data?: TData | null | undefined; error?: unknown }>,
  pick: (data: TData) => TResult | null | undefined,
): Promise<MutationOutcome<TResult>> {
  try {
    const { data, error } = await run();
    const result = data ? pick(data) : null;
    if (!error && result?.status.success) return { ok: true, result };
    return { ok: false, status: result?.status ?? null, error: error ?? null, result };
  } catch (error) {
    return { ok: false, status: null, error };
  }
}

/** The identifier of a failed outcome: the envelope's, else the one the gateway put in an HTTP error body. */
export function failureIdentifier(
  outcome: Extract<MutationOutcome<unknown>, { ok: false }>,
): string | null {
  if (outcome.status?.identifier) return outcome.status.identifier;
  if (CombinedGraphQLErrors.is(outcome.error)) {
    const candidate = outcome.error.errors[0]?.extensions?.['identifier'];
    return typeof candidate === 'string' ? candidate : null;
  }
  return serverErrorIdentifier(outcome.error);
}

/**
 * The gateway answers a refused request (429 rate limit, 403 geofence or origin) with an HTTP
 * error whose body still carries `errors[].extensions.identifier`.
 */
export function serverErrorIdentifier(error: unknown): string | null {
  if (!ServerError.is(error)) return null;
  if (error.statusCode === 429) return 'too_many_requests';
  try {
    const body: unknown = JSON.parse(error.bodyText);
    if (typeof body !== 'object' || body === null || !('errors' in body)) return null;
    const errors = (body as { errors?: Array<{ extensions?: { identifier?: unknown } }> }).errors;
    const candidate = errors?.[0]?.extensions?.identifier;
    return typeof candidate === 'string' ? candidate : null;
  } catch {
    return null;
  }
}

/**
 * The text that explains a failed outcome, or null when someone else already tells the user (an
 * HTTP 401 ends the session and navigates away).
 */
export function describeFailure(
  t: TFunction,
  outcome: Extract<MutationOutcome<unknown>, { ok: false }>,
  fallback: string = t('errors.generic_error'),
): string | null {
  const { status, error } = outcome;
  if (error) {
    if (CombinedGraphQLErrors.is(error)) return describeGraphQLErrors(t, error.errors);
    if (ServerError.is(error) && error.statusCode === 401) return null;
    const identifier = serverErrorIdentifier(error);
    return identifier ? errorText(t, identifier) : t('toast.networkError');
  }
  if (status && (status.identifier || status.message)) {
    return errorText(t, status.identifier, status.message);
  }
  return fallback;
}
