import { Outlet } from 'react-router';
import { AccessDeniedPage } from '../../errors/components/AccessDeniedPage';
import { PageLoader } from '../../../ui/PageLoader';
import { useGetCurrentUser } from '../hooks/useGetCurrentUser';
import { isStaff } from '../roles';
import { LoginRequired } from './LoginRequired';

/**
 * Route guard ("user-is-staff" middleware): admins, moderators and referees; the console shows each
 * their part. The server checks the role again on every call.
 */
export function RequireStaff() {
  const { user, loading } = useGetCurrentUser();
  if (loading) return <PageLoader />;
  if (!user) return <LoginRequired />;
  return isStaff(user.roles) ? <Outlet /> : <AccessDeniedPage />;
}
