import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  UpdateMinimalChallengeDocument,
  type UpdateMinimalChallengeMutationVariables,
} from '../graphql/UpdateMinimalChallenge';

// The page reports the outcome itself.
const context: AppOperationContext = { suppressErrorToast: true };

/** The minimum reward others must offer, in integer euro cents. */
export function useUpdateMinimalChallenge() {
  const [mutate, { loading }] = useMutation(UpdateMinimalChallengeDocument, { context });
  const updateMinimalChallenge = useCallback(
    (input: UpdateMinimalChallengeMutationVariables['input']) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.updateMinimalChallenge,
      ),
    [mutate],
  );
  return { updateMinimalChallenge, loading };
}
