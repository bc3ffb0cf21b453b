import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  ChangePasswordDocument,
  type ChangePasswordMutationVariables,
} from '../graphql/ChangePassword';

// The page reports the outcome itself.
const context: AppOperationContext = { suppressErrorToast: true };

/** Changes the password; the current one is checked by the server. */
export function useChangePassword() {
  const [mutate, { loading }] = useMutation(ChangePasswordDocument, { context });
  const changePassword = useCallback(
    (input: ChangePasswordMutationVariables['input']) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.changePassword,
      ),
    [mutate],
  );
  return { changePassword, loading };
}
