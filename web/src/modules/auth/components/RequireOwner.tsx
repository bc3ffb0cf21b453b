import { Navigate, Outlet, useParams } from 'react-router';
import { PageLoader } from '../../../ui/PageLoader';
import { useGetCurrentUser } from '../hooks/useGetCurrentUser';
import { LoginRequired } from './LoginRequired';

/**
 * Route guard ("user-is-owner" middleware) for routes under `/profile/:username/...` that only the
 * profile's owner may open: a visitor is asked to log in, another user is sent to the public
 * profile. Usernames compare without case, as identity stores them. The server checks again.
 */
export function RequireOwner() {
  const { username = '' } = useParams();
  const { user, loading } = useGetCurrentUser();
  if (loading) return <PageLoader />;
  if (!user) return <LoginRequired />;
  if (user.username.toLowerCase() !== username.toLowerCase()) {
    return <Navigate to={`/profile/${encodeURIComponent(username)}`} replace />;
  }
  return <Outlet />;
}
