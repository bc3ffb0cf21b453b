import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { CurrentUserDocument } from '../../auth/graphql/CurrentUser';
import {
  UpdateProfileDocument,
  type UpdateProfileMutationVariables,
} from '../graphql/UpdateProfile';

// The page reports the outcome itself.
const context: AppOperationContext = { suppressErrorToast: true };

/** Display name and bio (the sidebar's current-user profile is refreshed). */
export function useUpdateProfile() {
  const [mutate, { loading }] = useMutation(UpdateProfileDocument, {
    context,
    refetchQueries: [CurrentUserDocument],
  });
  const updateProfile = useCallback(
    (input: UpdateProfileMutationVariables['input']) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.updateProfile,
      ),
    [mutate],
  );
  return { updateProfile, loading };
}
