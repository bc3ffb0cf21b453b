import { useApolloClient, useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppOperationContext } from '../../../app/apolloClient';
import { describeFailure, failureIdentifier, settleMutation } from '../../../lib/mutationOutcome';
import { useToasts } from '../../../ui/toast/Toasts';
import { VerifyUserDocument, type VerifyUserInput } from '../graphql/VerifyUser';

// Failures are reported here, with the sign-up's own fallback text.
const context: AppOperationContext = { suppressErrorToast: true };

export type VerifyUserOutcome =
  | { kind: 'created' }
  /** The code or link expired while the form was filled in: the caller ends the attempt. */
  | { kind: 'expired' }
  | { kind: 'failed'; identifier: string | null };

/** Completes a sign-up (`verifyUser`); on success the gateway has set the session cookie. */
export function useVerifyUser() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useApolloClient();
  const [mutate, { loading }] = useMutation(VerifyUserDocument, { context });

  const verifyUser = useCallback(
    async (input: VerifyUserInput): Promise<VerifyUserOutcome> => {
      const outcome = await settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.verifyUser,
      );
      if (outcome.ok) {
        toasts.success(t('auth.completeAccount.created'));
        // Logged in now: load the new user's profile (and drop what the visitor had cached).
        await client.resetStore().catch(() => undefined);
        return { kind: 'created' };
      }
      const identifier = failureIdentifier(outcome);
      if (identifier === 'expired_credentials') return { kind: 'expired' };
      const text = describeFailure(t, outcome, t('auth.completeAccount.failed'));
      if (text) toasts.error(text);
      return { kind: 'failed', identifier };
    },
    [client, mutate, toasts, t],
  );

  return { verifyUser, loading };
}
