import { Navigate, Outlet } from 'react-router';
import { PageLoader } from '../../../ui/PageLoader';
import { useGetCurrentUser } from '../hooks/useGetCurrentUser';

/** Where a logged-in user goes from a page that is for visitors only. */
export const LOGGED_IN_HOME = '/';

/**
 * Route guard ("not-logged-in" middleware): the login landing page and the password recovery
 * request are for visitors; a logged-in user is sent on (replacing the entry, so Back works).
 */
export function RequireLoggedOut() {
  const { isLoggedIn, loading } = useGetCurrentUser();
  if (loading) return <PageLoader />;
  return isLoggedIn ? <Navigate to={LOGGED_IN_HOME} replace /> : <Outlet />;
}
