import { useApolloClient, useMutation } from '@apollo/client/react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AppOperationContext } from '../../../app/apolloClient';
import { useToasts } from '../../../ui/toast/Toasts';
import { LogoutDocument } from '../graphql/Logout';
import { clearLocalStores } from '../localStores';
import { useVerifyingUser } from './useVerifyingUser';

const context: AppOperationContext = { suppressErrorToast: true };

export interface LogoutOptions {
  /** Where to go afterwards; null stays on the page. Default: the home page. */
  redirectTo?: string | null;
  /** Say "Successfully logged out" (default true). */
  announce?: boolean;
}

/**
 * Ends the session: the `logout` mutation (the gateway clears the session cookie), then the local
 * state goes whatever the server answered: the Apollo store, the sign-up in progress. A failed
 * logout must never leave the UI looking logged in, so the user hears "Successfully logged out"
 * either way.
 */
export function useLogoutUser() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useApolloClient();
  const navigate = useNavigate();
  const { setVerifying } = useVerifyingUser();
  const [mutate] = useMutation(LogoutDocument, { context });
  const [loggingOut, setLoggingOut] = useState(false);

  const logout = useCallback(
    async ({ redirectTo = '/', announce = true }: LogoutOptions = {}) => {
      setLoggingOut(true);
      try {
        await mutate();
      } catch {
        // Reported below as a completed logout; the local session is cleared either way.
      }
      if (redirectTo !== null) await navigate(redirectTo);
      setVerifying(null);
      clearLocalStores();
      await client.resetStore().catch(() => undefined);
      if (announce) toasts.success(t('auth.toast.loggedOut'));
      setLoggingOut(false);
    },
    [client, mutate, navigate, setVerifying, toasts, t],
  );

  return { logout, loggingOut };
}
