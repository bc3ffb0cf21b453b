import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { UnfollowUserDocument } from '../graphql/UnfollowUser';

const context: AppOperationContext = { suppressErrorToast: true };

export function useUnfollowUser() {
  const [mutate, { loading }] = useMutation(UnfollowUserDocument, { context });
  const unfollowUser = useCallback(
    (username: string) =>
      settleMutation(
        () => mutate({ variables: { input: { username } } }),
        (data) => data.unfollowUser,
      ),
    [mutate],
  );
  return { unfollowUser, loading };
}
