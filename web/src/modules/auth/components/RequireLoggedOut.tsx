import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '../../../ui/PageLoader';
import { useGetCurrentUser } from '../hooks/useGetCurrentUser';

/** Where a logged-in user goes from a page that is for visitors only. */
export const LOGGED_IN_HOME = '/';

/**
 * Pages under this guard that the spec opens to all (section 2: "login recover request | all"):
 * the change-password page links a logged-in user to the recovery request.
 */
const OPEN_TO_ALL = new Set(['/login/recover/request']);

/**
 * Route guard ("not-logged-in" middleware): the login landing page is for visitors; a logged-in
 * user is sent on (replacing the entry, so Back works).
 */
export function RequireLoggedOut() {
  const { isLoggedIn, loading } = useGetCurrentUser();
  const { pathname } = useLocation();
  if (OPEN_TO_ALL.has(pathname.replace(/\/+$/, ''))) return <Outlet />;
  if (loading) return <PageLoader />;
  return isLoggedIn ? <Navigate to={LOGGED_IN_HOME} replace /> : <Outlet />;
}
