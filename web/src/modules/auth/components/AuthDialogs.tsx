import { useLocation } from 'react-router';
import { useModalRoute } from '../hooks/useModalRoute';
import { CompleteAccountDialog } from './CompleteAccountDialog';
import { LoginMagicLinkDialog } from './LoginMagicLinkDialog';
import { LoginUsernamePasswordDialog } from './LoginUsernamePasswordDialog';

/** Renders the dialog named by `?modal=`; at most one is open. */
export function AuthDialogs() {
  const { modal } = useModalRoute();
  const { pathname } = useLocation();
  return (
    <>
      <LoginMagicLinkDialog open={modal === 'login-magic-link'} />
      <LoginUsernamePasswordDialog open={modal === 'login-username-password'} />
      {/* Never on the terms page: people must be able to read what they are asked to accept. */}
      <CompleteAccountDialog open={modal === 'complete-account' && pathname !== '/terms'} />
    </>
  );
}
