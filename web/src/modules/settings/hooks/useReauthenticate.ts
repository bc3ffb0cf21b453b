import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  ReauthenticateDocument,
  type ReauthenticateMutationVariables,
} from '../graphql/Reauthenticate';

// The page reports the outcome itself.
const context: AppOperationContext = { suppressErrorToast: true };

/** Confirms the password again for one purpose; resolves to the proof on success. */
export function useReauthenticate() {
  const [mutate, { loading }] = useMutation(ReauthenticateDocument, { context });
  const reauthenticate = useCallback(
    (input: ReauthenticateMutationVariables['input']) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.reauthenticate,
      ),
    [mutate],
  );
  return { reauthenticate, loading };
}
