import { Outlet } from 'react-router';
import { PageLoader } from '../../../ui/PageLoader';
import { useGetCurrentUser } from '../hooks/useGetCurrentUser';
import { LoginRequired } from './LoginRequired';

/** Route guard ("logged-in" middleware): renders the child route only for a logged-in user. */
export function RequireLogin() {
  const { isLoggedIn, loading } = useGetCurrentUser();
  if (loading) return <PageLoader />;
  return isLoggedIn ? <Outlet /> : <LoginRequired />;
}
