import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  UpdateChallengeableProfileDocument,
  type UpdateChallengeableProfileMutationVariables,
} from '../graphql/UpdateChallengeableProfile';

// The page reports the outcome itself.
const context: AppOperationContext = { suppressErrorToast: true };

/** Whether others may challenge the viewer. */
export function useUpdateChallengeableProfile() {
  const [mutate, { loading }] = useMutation(UpdateChallengeableProfileDocument, { context });
  const updateChallengeableProfile = useCallback(
    (input: UpdateChallengeableProfileMutationVariables['input']) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.updateChallengeableProfile,
      ),
    [mutate],
  );
  return { updateChallengeableProfile, loading };
}
