import { useQuery } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { CurrentUserDocument, type CurrentUserProfile } from '../graphql/CurrentUser';

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

// Guards and the sidebar share this query; a logged-out answer is normal, never a toast.
const context: AppOperationContext = { suppressErrorToast: true };

/** The answers that mean "nobody is logged in": no session, or its account is gone. */
const LOGGED_OUT = new Set(['unauthorized', 'authorized_user_not_found']);

/**
 * Logged in means: the server answered `status.success` with a profile; logged out means it
 * answered `unauthorized` (a 401 resets the app elsewhere). A failed request is neither
 * (issue 22, point 3): the previous answer stands and `refreshFailed` says the check failed.
 */
export function useGetCurrentUser(): CurrentUserState {
  const { data, previousData, loading, error, refetch } = useQuery(CurrentUserDocument, {
    fetchPolicy: 'cache-first',
    context,
    notifyOnNetworkStatusChange: true,
  });
  const current = data?.getCurrentUserProfile;
  const answered =
    current != null && (current.status.success || LOGGED_OUT.has(current.status.identifier ?? ''));
  const known = answered ? current : previousData?.getCurrentUserProfile;
  const user = known?.status.success ? (known.profile ?? null) : null;
  const refreshFailed = !loading && !answered && (error !== undefined || data !== undefined);
  const retry = useCallback(() => void refetch().catch(() => undefined), [refetch]);
  return {
    user,
    isLoggedIn: user !== null,
    loading: loading && data === undefined && previousData === undefined,
    refreshFailed,
    retry,
  };
}

/** The name to greet a user by. */
export function displayNameOf(user: Pick<CurrentUserProfile, 'displayName' | 'username'>): string {
  return user.displayName?.trim() || user.username;
}
