import type { ApolloClient, ObservableQuery } from '@apollo/client';
import { useApolloClient } from '@apollo/client/react';
import { useCallback, useSyncExternalStore } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import {
  CurrentUserDocument,
  type CurrentUserProfile,
  type CurrentUserQuery,
  type CurrentUserQueryVariables,
} from '../graphql/CurrentUser';

export interface CurrentUserState {
  /** The logged-in user's profile, or null when logged out (or while loading). */
  user: CurrentUserProfile | null;
  isLoggedIn: boolean;
  /** True only until the first answer; refreshes keep showing the known state. */
  loading: boolean;
  /**
   * The last check failed (a 429 or 5xx after the client's one retry, no connection): whether
   * the person is logged in is unknown, so the last known answer is kept, not "logged out".
   */
  refreshFailed: boolean;
  /** Asks again (the "Try again" of the could-not-refresh notices). */
  retry: () => void;
}

type Answer = NonNullable<CurrentUserQuery['getCurrentUserProfile']>;

/** The answers that mean "nobody is logged in": no session, or its account is gone. */
const LOGGED_OUT = new Set(['unauthorized', 'authorized_user_not_found']);

const answered = (answer: Answer | null | undefined): answer is Answer =>
  answer != null && (answer.status.success || LOGGED_OUT.has(answer.status.identifier ?? ''));

/**
 * The app's one session check per client. Guards, the sidebar and notices mount at different
 * moments (the page's parts load apart, ADR 81); each with its own query would ask again after
 * a failed check, so a busy gateway saw two or three checks and their retries per page load.
 * One watched query serves them all: a check is one request and at most the client's one retry.
 */
interface SessionCheck {
  query: ObservableQuery<CurrentUserQuery, CurrentUserQueryVariables>;
  /** The last answer that said who is logged in; a failed refresh keeps it. */
  lastAnswer: Answer | undefined;
  subscribe: (onChange: () => void) => () => void;
}

const checks = new WeakMap<ApolloClient, SessionCheck>();

// A logged-out answer is normal, never a toast.
const context: AppOperationContext = { suppressErrorToast: true };

function sessionCheckOf(client: ApolloClient): SessionCheck {
  const known = checks.get(client);
  if (known) return known;
  const query = client.watchQuery({
    query: CurrentUserDocument,
    fetchPolicy: 'cache-first',
    context,
    notifyOnNetworkStatusChange: true,
  });
  const check: SessionCheck = {
    query,
    lastAnswer: undefined,
    subscribe: (onChange) => {
      const subscription = query.subscribe(() => onChange());
      // Later, as useQuery does: a part replaced by another in one render keeps the check alive.
      return () => setTimeout(() => subscription.unsubscribe());
    },
  };
  checks.set(client, check);
  return check;
}

/**
 * Logged in means: the server answered `status.success` with a profile; logged out means it
 * answered `unauthorized` (a 401 resets the app elsewhere). A failed request is neither
 * (issue 22, point 3): the previous answer stands and `refreshFailed` says the check failed.
 */
export function useGetCurrentUser(): CurrentUserState {
  const check = sessionCheckOf(useApolloClient());
  const read = () => check.query.getCurrentResult();
  const result = useSyncExternalStore(check.subscribe, read, read);
  const current = result.dataState === 'complete' ? result.data.getCurrentUserProfile : undefined;
  if (answered(current)) check.lastAnswer = current;
  const known = check.lastAnswer;
  const user = known?.status.success ? (known.profile ?? null) : null;
  const refreshFailed =
    !result.loading && !answered(current) && (result.error !== undefined || result.data != null);
  const retry = useCallback(() => void check.query.refetch().catch(() => undefined), [check]);
  return {
    user,
    isLoggedIn: user !== null,
    loading: result.loading && known === undefined,
    refreshFailed,
    retry,
  };
}

/** The name to greet a user by. */
export function displayNameOf(user: Pick<CurrentUserProfile, 'displayName' | 'username'>): string {
  return user.displayName?.trim() || user.username;
}
