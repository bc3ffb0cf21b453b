import { Outlet } from 'react-router';
import { PageLoader } from '../../../ui/PageLoader';
import { useGetCurrentUser } from '../hooks/useGetCurrentUser';
import { LoginRequired } from './LoginRequired';
import { SessionCheckFailed } from './SessionCheckFailed';

/** Route guard ("logged-in" middleware): renders the child route only for a logged-in user. */
export function RequireLogin() {
  const { isLoggedIn, loading, refreshFailed, retry } = useGetCurrentUser();
  if (loading) return <PageLoader />;
  if (isLoggedIn) return <Outlet />;
  // A failed check is not a logged-out answer: ask to try again, not to log in.
  return refreshFailed ? <SessionCheckFailed onRetry={retry} /> : <LoginRequired />;
}
