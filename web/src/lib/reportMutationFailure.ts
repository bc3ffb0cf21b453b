import { CombinedGraphQLErrors, ServerError } from '@apollo/client';
import type { TFunction } from 'i18next';
import type { ToastStore } from '../ui/toast/toastStore';
import type { ResponseStatus } from './graphql';
import { errorText } from './errorMessages';
import { serverErrorIdentifier } from './mutationOutcome';

/**
 * Tells the user why a mutation did not succeed, without saying it twice:
 * - GraphQL errors were already shown by the client's error link;
 * - a 401 is handled by the session reset;
 * - a refusal by the gateway (rate limit, geofence) gets the text of its identifier;
 * - any other transport error gets the "could not reach the server" text;
 * - otherwise the envelope's identifier (translated) or message is shown.
 */
export function reportMutationFailure(
  toasts: ToastStore,
  t: TFunction,
  { error, status }: { error?: unknown; status?: ResponseStatus | null | undefined },
): void {
  if (error) {
    if (CombinedGraphQLErrors.is(error)) return;
    if (ServerError.is(error) && error.statusCode === 401) return;
    const identifier = serverErrorIdentifier(error);
    toasts.error(identifier ? errorText(t, identifier) : t('toast.networkError'));
    return;
  }
  toasts.error(errorText(t, status?.identifier, status?.message));
}
