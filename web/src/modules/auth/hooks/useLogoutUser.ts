import { useApolloClient, useMutation } from '@apollo/client/react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AppOperationContext } from '../../../app/apolloClient';
import { useToasts } from '../../../ui/toast/Toasts';
import { LogoutDocument } from '../graphql/Logout';

const context: AppOperationContext = { suppressErrorToast: true };

/**
 * Ends the session. Whatever the server answers, the local state is cleared and the user hears
 * "Successfully logged out": a failed logout must never leave the UI looking logged in.
 */
export function useLogoutUser() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useApolloClient();
  const navigate = useNavigate();
  const [mutate] = useMutation(LogoutDocument, { context });
  const [loggingOut, setLoggingOut] = useState(false);

  const logout = useCallback(async () => {
    setLoggingOut(true);
    try {
      await mutate();
    } catch {
      // Reported below as a completed logout; the local session is cleared either way.
    }
    await navigate('/');
    await client.resetStore().catch(() => undefined);
    toasts.success(t('auth.toast.loggedOut'));
    setLoggingOut(false);
  }, [client, mutate, navigate, toasts, t]);

  return { logout, loggingOut };
}
