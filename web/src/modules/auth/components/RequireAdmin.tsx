import { Outlet } from 'react-router';
import { AccessDeniedPage } from '../../errors/components/AccessDeniedPage';
import { PageLoader } from '../../../ui/PageLoader';
import { useGetCurrentUser } from '../hooks/useGetCurrentUser';
import { isAdmin } from '../roles';
import { LoginRequired } from './LoginRequired';

/** Route guard ("user-is-admin" middleware). The server checks the role again on every call. */
export function RequireAdmin() {
  const { user, loading } = useGetCurrentUser();
  if (loading) return <PageLoader />;
  if (!user) return <LoginRequired />;
  return isAdmin(user.roles) ? <Outlet /> : <AccessDeniedPage />;
}
