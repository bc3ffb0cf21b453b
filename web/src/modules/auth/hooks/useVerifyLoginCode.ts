import { useApolloClient, useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppOperationContext } from '../../../app/apolloClient';
import { describeFailure, failureIdentifier, settleMutation } from '../../../lib/mutationOutcome';
import { useToasts } from '../../../ui/toast/Toasts';
import { useTakeAccountLanguage } from '../accountLanguage';
import { VerifyLoginCodeDocument } from '../graphql/VerifyLoginCode';
import { clearLocalStores } from '../localStores';
import { useShowSuspension } from '../suspension';

export type VerifyLoginCodeOutcome =
  | { kind: 'logged-in'; originUrl: string | null }
  /** The code is right but there is no account yet: the user completes one. */
  | { kind: 'needs-account' }
  /** `text` is for the code field; null when someone else already told (a 401). */
  | { kind: 'failed'; text: string | null };

// A wrong code has its own words (the catalogue's invalid_credentials text is about passwords).
const context: AppOperationContext = { suppressErrorToast: true };

/** The code flow's own texts for the identifiers a code can fail with. */
const CODE_FAILURES = {
  invalid_credentials: 'auth.magicLink.wrongCode',
  expired_credentials: 'auth.magicLink.codeExpired',
} as const;

export function useVerifyLoginCode() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const client = useApolloClient();
  const takeAccountLanguage = useTakeAccountLanguage();
  const [mutate, { loading }] = useMutation(VerifyLoginCodeDocument, { context });
  const showSuspension = useShowSuspension();

  const verifyLoginCode = useCallback(
    async (email: string, code: string): Promise<VerifyLoginCodeOutcome> => {
      const outcome = await settleMutation(
        () => mutate({ variables: { input: { email, code: code.trim() } } }),
        (data) => data.verifyLoginCode,
      );
      if (outcome.ok) {
        if (!outcome.result.isVerified) return { kind: 'needs-account' };
        // A new identity: everything cached so far belongs to the logged-out visitor.
        await client.resetStore().catch(() => undefined);
        await takeAccountLanguage();
        toasts.success(t('auth.toast.welcomeBack'));
        return { kind: 'logged-in', originUrl: outcome.result.originUrl };
      }
      const identifier = failureIdentifier(outcome);
      // A failed login clears the local stores (spec section 4), the create draft included.
      clearLocalStores();
      // Suspended: the suspension dialog says why, not the code field (issue 22, point 4).
      if (showSuspension(identifier, outcome.result?.suspension)) {
        return { kind: 'failed', text: null };
      }
      const own = identifier && identifier in CODE_FAILURES ? identifier : null;
      const text = own
        ? t(CODE_FAILURES[own as keyof typeof CODE_FAILURES])
        : describeFailure(t, outcome, t('errors.generic_error'));
      return { kind: 'failed', text };
    },
    [client, takeAccountLanguage, mutate, showSuspension, toasts, t],
  );

  return { verifyLoginCode, loading };
}
