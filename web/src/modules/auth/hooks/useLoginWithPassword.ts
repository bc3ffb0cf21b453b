import { CombinedGraphQLErrors } from '@apollo/client';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppOperationContext } from '../../../app/apolloClient';
import { describeGraphQLErrors, errorText } from '../../../lib/errorMessages';
import { serverErrorIdentifier } from '../../../lib/mutationOutcome';
import { useToasts } from '../../../ui/toast/Toasts';
import { useTakeAccountLanguage } from '../accountLanguage';
import { LoginDocument } from '../graphql/Login';
import { clearLocalStores } from '../localStores';
import { useShowSuspension } from '../suspension';

const context: AppOperationContext = { suppressErrorToast: true };

/** What a log-in came to; a failure carries its "Login failed: …" text for the form to show. */
export type LoginResult =
  | { ok: true }
  /** `credentials`: the username (or e-mail address) and password do not match. */
  | { ok: false; text: string; credentials: boolean }
  /** Suspended: the suspension dialog replaced the form and says why. */
  | { ok: false; text: null };

const CREDENTIAL_FAILURES = new Set(['invalid_credentials', 'user_login_failed']);

/**
 * Username (or e-mail address) and password login. Failures read "Login failed: <reason>" and
 * are the form's to show, on the password field or in the dialog: a toast would leave after five
 * seconds and cover the page.
 */
export function useLoginWithPassword() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useApolloClient();
  const takeAccountLanguage = useTakeAccountLanguage();
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
    async (username: string, password: string): Promise<LoginResult> => {
      let reason: string | null = null;
      let identifier: string | null = null;
      try {
        const { data, error } = await mutate({
          variables: { input: { username: username.trim(), password } },
        });
        const status = data?.login?.status;
        if (!error && status?.success) {
          await client.resetStore().catch(() => undefined);
          await takeAccountLanguage();
          toasts.success(t('auth.toast.welcomeBack'));
          return { ok: true };
        }
        // A failed login clears the local stores (spec section 4), the create draft included.
        clearLocalStores();
        identifier = status?.identifier ?? null;
        // Suspended: the suspension dialog says why, not "Login failed" (issue 22, point 4).
        if (showSuspension(identifier, data?.login?.suspension)) return { ok: false, text: null };
        if (CombinedGraphQLErrors.is(error)) reason = describeGraphQLErrors(t, error.errors);
        else if (!error && status) reason = errorText(t, status.identifier, status.message);
        else reason = refusalText(error);
      } catch (error) {
        clearLocalStores();
        if (CombinedGraphQLErrors.is(error)) reason = describeGraphQLErrors(t, error.errors);
        else reason = refusalText(error);
      }
      return {
        ok: false,
        text: reason
          ? t('auth.toast.loginFailed', { reason })
          : t('auth.toast.loginFailedUnexpected'),
        credentials: identifier !== null && CREDENTIAL_FAILURES.has(identifier),
      };
    },
    [client, takeAccountLanguage, mutate, refusalText, showSuspension, toasts, t],
  );

  return { login, loading };
}
