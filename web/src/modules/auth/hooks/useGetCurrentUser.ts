import { useQuery } from '@apollo/client/react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { CurrentUserDocument, type CurrentUserProfile } from '../graphql/CurrentUser';

export interface CurrentUserState {
  /** The logged-in user's profile, or null when logged out (or while loading). */
  user: CurrentUserProfile | null;
  isLoggedIn: boolean;
  /** True only until the first answer; refreshes keep showing the known state. */
  loading: boolean;
}

// Guards and the sidebar share this query; a logged-out answer is normal, never a toast.
const context: AppOperationContext = { suppressErrorToast: true };

/**
 * Logged in means: the server answered `status.success` with a profile. Anything else, including
 * the normal logged-out answer (identifier `unauthorized`) and a failed request, is logged out.
 */
export function useGetCurrentUser(): CurrentUserState {
  const { data, loading } = useQuery(CurrentUserDocument, { fetchPolicy: 'cache-first', context });
  const result = data?.getCurrentUserProfile;
  const user = result?.status.success ? (result.profile ?? null) : null;
  return { user, isLoggedIn: user !== null, loading: loading && data === undefined };
}

/** The name to greet a user by. */
export function displayNameOf(user: Pick<CurrentUserProfile, 'displayName' | 'username'>): string {
  return user.displayName?.trim() || user.username;
}
