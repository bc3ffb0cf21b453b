import { useApolloClient, useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppOperationContext } from '../../../app/apolloClient';
import { failureIdentifier, settleMutation } from '../../../lib/mutationOutcome';
import { useToasts } from '../../../ui/toast/Toasts';
import { useTakeAccountLanguage } from '../accountLanguage';
import { VerifyLoginLinkDocument } from '../graphql/VerifyLoginLink';
import { clearLocalStores } from '../localStores';
import { useShowSuspension } from '../suspension';

// The page explains a failed link itself.
const context: AppOperationContext = { suppressErrorToast: true };

export type VerifyLoginLinkOutcome =
  | { kind: 'logged-in'; originUrl: string | null }
  /** The link is right but there is no account yet: the user completes one. */
  | { kind: 'needs-account'; originUrl: string | null }
  /** identifier: expired_credentials, invalid_credentials, too_many_requests, ... or null. */
  | { kind: 'failed'; identifier: string | null; message: string | null; network: boolean };

/** Logs in with the link from the e-mail (email, hash and expires from its query). */
export function useVerifyLoginLink() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useApolloClient();
  const takeAccountLanguage = useTakeAccountLanguage();
  const [mutate, { loading }] = useMutation(VerifyLoginLinkDocument, { context });
  const showSuspension = useShowSuspension();

  const verifyLoginLink = useCallback(
    async (input: {
      email: string;
      hash: string;
      expires: number;
    }): Promise<VerifyLoginLinkOutcome> => {
      const outcome = await settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.verifyLoginLink,
      );
      if (!outcome.ok) {
        const identifier = failureIdentifier(outcome);
        // A failed login clears the local stores (spec section 4), the create draft included.
        clearLocalStores();
        // Suspended: the dialog over the page says why (issue 22, point 4).
        showSuspension(identifier, outcome.result?.suspension);
        return {
          kind: 'failed',
          identifier,
          message: outcome.status?.message ?? null,
          network: outcome.status === null,
        };
      }
      const { isVerified, originUrl } = outcome.result;
      if (!isVerified) return { kind: 'needs-account', originUrl };
      // A new identity: everything cached so far belongs to the logged-out visitor.
      await client.resetStore().catch(() => undefined);
      await takeAccountLanguage();
      toasts.success(t('auth.toast.welcomeBack'));
      return { kind: 'logged-in', originUrl };
    },
    [client, takeAccountLanguage, mutate, showSuspension, toasts, t],
  );

  return { verifyLoginLink, loading };
}
