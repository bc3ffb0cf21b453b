import { useApolloClient, useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { reportMutationFailure } from '../../../lib/reportMutationFailure';
import { useToasts } from '../../../ui/toast/Toasts';
import { VerifyLoginCodeDocument } from '../graphql/VerifyLoginCode';

export type VerifyLoginCodeOutcome =
  | { kind: 'logged-in'; originUrl: string | null }
  /** The code is right but there is no account yet: the user completes one. */
  | { kind: 'needs-account' }
  | { kind: 'failed' };

export function useVerifyLoginCode() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useApolloClient();
  const [mutate, { loading }] = useMutation(VerifyLoginCodeDocument);

  const verifyLoginCode = useCallback(
    async (email: string, code: string): Promise<VerifyLoginCodeOutcome> => {
      try {
        const { data, error } = await mutate({
          variables: { input: { email, code: code.trim() } },
        });
        const result = data?.verifyLoginCode;
        if (!error && result?.status.success) {
          if (!result.isVerified) return { kind: 'needs-account' };
          // A new identity: everything cached so far belongs to the logged-out visitor.
          await client.resetStore().catch(() => undefined);
          toasts.success(t('auth.toast.welcomeBack'));
          return { kind: 'logged-in', originUrl: result.originUrl };
        }
        reportMutationFailure(toasts, t, { error, status: result?.status });
      } catch (error) {
        reportMutationFailure(toasts, t, { error });
      }
      return { kind: 'failed' };
    },
    [client, mutate, toasts, t],
  );

  return { verifyLoginCode, loading };
}
