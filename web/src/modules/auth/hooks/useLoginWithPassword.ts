import { CombinedGraphQLErrors } from '@apollo/client';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppOperationContext } from '../../../app/apolloClient';
import { describeGraphQLErrors, errorText } from '../../../lib/errorMessages';
import { serverErrorIdentifier } from '../../../lib/mutationOutcome';
import { useToasts } from '../../../ui/toast/Toasts';
import { LoginDocument } from '../graphql/Login';
import { useShowSuspension } from '../suspension';

const context: AppOperationContext = { suppressErrorToast: true };

/** Username and password login. Failures read "Login failed: <reason>". Resolves to true on success. */
export function useLoginWithPassword() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useApolloClient();
  const [mutate, { loading }] = useMutation(LoginDocument, { context });
  const showSuspension = useShowSuspension();

  // The gateway refuses with an HTTP error (429 rate limit, 403 geofence) that names its reason.
  const refusalText = useCallback(
    (error: unknown): string | null => {
      const identifier = serverErrorIdentifier(error);
      return identifier ? errorText(t, identifier) : null;
    },
    [t],
  );

  const login = useCallback(
    async (username: string, password: string): Promise<boolean> => {
      let reason: string | null = null;
      try {
        const { data, error } = await mutate({
          variables: { input: { username: username.trim(), password } },
        });
        const status = data?.login?.status;
        if (!error && status?.success) {
          await client.resetStore().catch(() => undefined);
          toasts.success(t('auth.toast.welcomeBack'));
          return true;
        }
        // Suspended: the dialog says why, not "Login failed" (issue 22, point 4).
        if (showSuspension(status?.identifier, data?.login?.suspension)) return false;
        if (CombinedGraphQLErrors.is(error)) reason = describeGraphQLErrors(t, error.errors);
        else if (!error && status) reason = errorText(t, status.identifier, status.message);
        else reason = refusalText(error);
      } catch (error) {
        if (CombinedGraphQLErrors.is(error)) reason = describeGraphQLErrors(t, error.errors);
        else reason = refusalText(error);
      }
      toasts.error(
        reason ? t('auth.toast.loginFailed', { reason }) : t('auth.toast.loginFailedUnexpected'),
      );
      return false;
    },
    [client, mutate, refusalText, showSuspension, toasts, t],
  );

  return { login, loading };
}
