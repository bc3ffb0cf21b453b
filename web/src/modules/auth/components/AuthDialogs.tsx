import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { restoreRouteDialogFocus, useModalRoute } from '../hooks/useModalRoute';
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
  const anyOpen =
    completeAccount || modal === 'login-magic-link' || modal === 'login-username-password';
  // Focus goes back where the person was once the last of these dialogs closed.
  const wasOpen = useRef(anyOpen);
  useLayoutEffect(() => {
    if (wasOpen.current && !anyOpen) restoreRouteDialogFocus();
    wasOpen.current = anyOpen;
  }, [anyOpen]);
  return (
    <>
      <LoginMagicLinkDialog open={!completeAccount && modal === 'login-magic-link'} />
      <LoginUsernamePasswordDialog open={!completeAccount && modal === 'login-username-password'} />
      <CompleteAccountDialog open={completeAccount} />
      <SuspendedDialog open={!completeAccount && modal === 'suspended'} />
    </>
  );
}
