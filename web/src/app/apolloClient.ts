import {
  ApolloClient,
  ApolloLink,
  CombinedGraphQLErrors,
  HttpLink,
  InMemoryCache,
  ServerError,
} from '@apollo/client';
import { ErrorLink } from '@apollo/client/link/error';
import type { i18n as I18n } from 'i18next';
import { describeGraphQLErrors } from '../lib/errorMessages';
import type { ToastStore } from '../ui/toast/toastStore';
import { appConfig } from './config';
import { traceparentLink } from './traceparent';

/**
 * Operation context flags understood by the links below. Pass them as `context` on a query or
 * mutation, e.g. `useMutation(Login, { context: { suppressErrorToast: true } })` when the caller
 * reports the failure itself.
 */
export interface AppOperationContext {
  suppressErrorToast?: boolean;
}

export interface CreateApolloClientOptions {
  toasts: ToastStore;
  i18n: I18n;
  /** Called on an HTTP 401: the session is gone. */
  onUnauthorized: () => void;
  /** Replaces the HTTP transport (tests). */
  terminatingLink?: ApolloLink;
}

function isUnauthorized(error: unknown, operation: ApolloLink.Operation): boolean {
  if (ServerError.is(error) && error.statusCode === 401) return true;
  // A server that answers 401 with application/graphql-response+json yields GraphQL errors instead.
  const response: unknown = operation.getContext()['response'];
  return response instanceof Response && response.status === 401;
}

export function createApolloClient({
  toasts,
  i18n,
  onUnauthorized,
  terminatingLink,
}: CreateApolloClientOptions): ApolloClient {
  const errorLink = new ErrorLink(({ error, operation }) => {
    if (isUnauthorized(error, operation)) {
      onUnauthorized();
      return;
    }
    const context = operation.getContext() as AppOperationContext;
    if (CombinedGraphQLErrors.is(error) && !context.suppressErrorToast) {
      toasts.error(describeGraphQLErrors(i18n.t, error.errors));
    }
  });

  const httpLink =
    terminatingLink ??
    new HttpLink({
      uri: appConfig.graphqlPath,
      // The session cookie travels with same-origin requests; the browser never sees the token.
      credentials: 'same-origin',
    });

  return new ApolloClient({
    link: ApolloLink.from([errorLink, traceparentLink, httpLink]),
    cache: new InMemoryCache(),
    clientAwareness: { name: appConfig.clientName, version: appConfig.clientVersion },
    defaultOptions: {
      // Spec: fetch from the network by default and hand errors back alongside data.
      watchQuery: {
        fetchPolicy: 'network-only',
        nextFetchPolicy: 'cache-first',
        errorPolicy: 'all',
      },
      query: { fetchPolicy: 'network-only', errorPolicy: 'all' },
      mutate: { errorPolicy: 'all' },
    },
  });
}

/**
 * After a 401 the local state is stale: clear the cache, then let the caller navigate away.
 * Guarded so that a burst of failing requests triggers one reset, not many.
 */
export function createUnauthorizedHandler(
  reset: () => Promise<unknown>,
  navigate: () => void,
  guardMs = 5000,
) {
  let lastHandledAt = Number.NEGATIVE_INFINITY;
  return () => {
    const now = Date.now();
    if (now - lastHandledAt < guardMs) return;
    lastHandledAt = now;
    navigate();
    void reset().catch(() => undefined);
  };
}
