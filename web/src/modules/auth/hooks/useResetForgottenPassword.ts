import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import {
  failureIdentifier,
  settleMutation,
  type MutationOutcome,
} from '../../../lib/mutationOutcome';
import { ResetForgottenPasswordDocument } from '../graphql/ResetForgottenPassword';

// The page explains a failure itself (an expired or used link needs more than a toast).
const context: AppOperationContext = { suppressErrorToast: true };

export type ResetForgottenPasswordOutcome =
  | { kind: 'reset' }
  | {
      kind: 'failed';
      identifier: string | null;
      failure: Extract<MutationOutcome<unknown>, { ok: false }>;
    };

export function useResetForgottenPassword() {
  const [mutate, { loading }] = useMutation(ResetForgottenPasswordDocument, { context });

  const resetForgottenPassword = useCallback(
    async (input: {
      token: string;
      password: string;
      repeatPassword: string;
    }): Promise<ResetForgottenPasswordOutcome> => {
      const outcome = await settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.resetForgottenPassword,
      );
      if (outcome.ok) return { kind: 'reset' };
      return { kind: 'failed', identifier: failureIdentifier(outcome), failure: outcome };
    },
    [mutate],
  );

  return { resetForgottenPassword, loading };
}
