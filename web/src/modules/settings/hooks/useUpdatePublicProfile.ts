import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  UpdatePublicProfileDocument,
  type UpdatePublicProfileMutationVariables,
} from '../graphql/UpdatePublicProfile';

// The page reports the outcome itself.
const context: AppOperationContext = { suppressErrorToast: true };

/** Whether the viewer's profile is visible to others. */
export function useUpdatePublicProfile() {
  const [mutate, { loading }] = useMutation(UpdatePublicProfileDocument, { context });
  const updatePublicProfile = useCallback(
    (input: UpdatePublicProfileMutationVariables['input']) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.updatePublicProfile,
      ),
    [mutate],
  );
  return { updatePublicProfile, loading };
}
