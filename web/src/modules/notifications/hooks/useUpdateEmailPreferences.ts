import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import type { EmailPreferences } from '../graphql/EmailPreferences';
import { UpdateEmailPreferencesDocument } from '../graphql/UpdateEmailPreferences';

// The form reports the outcome itself.
const context: AppOperationContext = { suppressErrorToast: true };

/** Saves every choice at once (by the e-mail link's token when there is one). */
export function useUpdateEmailPreferences(token: string | null) {
  const [mutate, { loading }] = useMutation(UpdateEmailPreferencesDocument, { context });
  const updateEmailPreferences = useCallback(
    (choices: Record<keyof EmailPreferences, boolean>) =>
      settleMutation(
        () => mutate({ variables: { input: { token, ...choices } } }),
        (data) => data.updateEmailPreferences,
      ),
    [mutate, token],
  );
  return { updateEmailPreferences, loading };
}
