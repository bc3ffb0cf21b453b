import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { CancelChallengeDocument } from '../graphql/CancelChallenge';
import {
  UpdateChallengeDocument,
  type UpdateChallengeMutationVariables,
} from '../graphql/UpdateChallenge';
import {
  UpdateChallengeStatusDocument,
  type UpdateChallengeStatusMutationVariables,
} from '../graphql/UpdateChallengeStatus';

// The detail page explains a refusal next to the action.
const context: AppOperationContext = { suppressErrorToast: true };

/** accept, decline (reason), approve, reject (reason): one status change of a challenge. */
export function useUpdateChallengeStatus() {
  const [mutate, { loading }] = useMutation(UpdateChallengeStatusDocument, { context });
  const updateChallengeStatus = useCallback(
    (input: UpdateChallengeStatusMutationVariables['input']) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.updateChallengeStatus,
      ),
    [mutate],
  );
  return { updateChallengeStatus, loading };
}

export function useCancelChallenge() {
  const [mutate, { loading }] = useMutation(CancelChallengeDocument, { context });
  const cancelChallenge = useCallback(
    (slug: string) =>
      settleMutation(
        () => mutate({ variables: { slug } }),
        (data) => data.cancelChallenge,
      ),
    [mutate],
  );
  return { cancelChallenge, loading };
}

export function useUpdateChallenge() {
  const [mutate, { loading }] = useMutation(UpdateChallengeDocument, { context });
  const updateChallenge = useCallback(
    (input: UpdateChallengeMutationVariables['input']) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.updateChallenge,
      ),
    [mutate],
  );
  return { updateChallenge, loading };
}
