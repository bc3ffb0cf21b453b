import {
  ApolloClient,
  ApolloLink,
  CombinedGraphQLErrors,
  HttpLink,
  InMemoryCache,
  ServerError,
} from '@apollo/client';
import { ErrorLink } from '@apollo/client/link/error';
import { RetryLink } from '@apollo/client/link/retry';
import { OperationTypeNode } from 'graphql';
import type { i18n as I18n } from 'i18next';
import { describeGraphQLErrors } from '../lib/errorMessages';
import { serverErrorIdentifier } from '../lib/mutationOutcome';
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
  /** Called on an HTTP 401: the session is gone; `banned_user` when staff suspended the account. */
  onUnauthorized: (identifier: string | null) => void;
  /** Replaces the HTTP transport (tests). */
  terminatingLink?: ApolloLink;
}

function isUnauthorized(error: unknown, operation: ApolloLink.Operation): boolean {
  if (ServerError.is(error) && error.statusCode === 401) return true;
  // A server that answers 401 with application/graphql-response+json yields GraphQL errors instead.
  const response: unknown = operation.getContext()['response'];
  return response instanceof Response && response.status === 401;
}

/** The spec's retryable answers: timeouts, conflicts, too early, too many, server trouble. */
const RETRYABLE_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

function statusOf(error: unknown, operation: ApolloLink.Operation): number | null {
  if (ServerError.is(error)) return error.statusCode;
  const response: unknown = operation.getContext()['response'];
  return response instanceof Response ? response.status : null;
}

/**
 * The spec's generic client (issue 22, point 3): a read (a query) is asked once more after a
 * retryable answer; a write (a mutation) never, since it may have taken effect. A short,
 * jittered pause keeps a crowd of clients from coming back at the same moment.
 */
export function createRetryLink(delayMs = 400): RetryLink {
  return new RetryLink({
    delay: { initial: delayMs, max: delayMs * 2, jitter: true },
    attempts: (attempt, operation, error) =>
      attempt < 2 &&
      operation.operationType === OperationTypeNode.QUERY &&
      RETRYABLE_STATUSES.has(statusOf(error, operation) ?? 0),
  });
}

/** The identifier the gateway gave a 401 (its body, or GraphQL errors). */
function unauthorizedIdentifier(error: unknown): string | null {
  if (CombinedGraphQLErrors.is(error)) {
    const candidate = error.errors[0]?.extensions?.['identifier'];
    return typeof candidate === 'string' ? candidate : null;
  }
  return serverErrorIdentifier(error);
}

export function createApolloClient({
  toasts,
  i18n,
  onUnauthorized,
  terminatingLink,
}: CreateApolloClientOptions): ApolloClient {
  const errorLink = new ErrorLink(({ error, operation }) => {
    if (isUnauthorized(error, operation)) {
      onUnauthorized(unauthorizedIdentifier(error));
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
    // The retry sits under the error link: only the final failure is reported.
    link: ApolloLink.from([errorLink, createRetryLink(), traceparentLink, httpLink]),
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
  navigate: (identifier: string | null) => void,
  guardMs = 5000,
) {
  let lastHandledAt = Number.NEGATIVE_INFINITY;
  return (identifier: string | null = null) => {
    const now = Date.now();
    if (now - lastHandledAt < guardMs) return;
    lastHandledAt = now;
    navigate(identifier);
    void reset().catch(() => undefined);
  };
}
