import { useLocation } from 'react-router';
import { useModalRoute } from '../hooks/useModalRoute';
import { useVerifyingUser } from '../hooks/useVerifyingUser';
import { CompleteAccountDialog } from './CompleteAccountDialog';
import { LoginMagicLinkDialog } from './LoginMagicLinkDialog';
import { LoginUsernamePasswordDialog } from './LoginUsernamePasswordDialog';
import { SuspendedDialog } from './SuspendedDialog';

/**
 * Renders the dialog named by `?modal=`; at most one is open. A sign-up in progress (a verifying
 * user) keeps the complete-account dialog open wherever the user is, except on /terms.
 */
export function AuthDialogs() {
  const { modal } = useModalRoute();
  const { pathname } = useLocation();
  const { verifying } = useVerifyingUser();
  // Never on the terms page: people must be able to read what they are asked to accept.
  const completeAccount =
    pathname !== '/terms' && (modal === 'complete-account' || verifying !== null);
  return (
    <>
      <LoginMagicLinkDialog open={!completeAccount && modal === 'login-magic-link'} />
      <LoginUsernamePasswordDialog open={!completeAccount && modal === 'login-username-password'} />
      <CompleteAccountDialog open={completeAccount} />
      <SuspendedDialog open={!completeAccount && modal === 'suspended'} />
    </>
  );
}
