import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { FollowUserDocument } from '../graphql/FollowUser';

const context: AppOperationContext = { suppressErrorToast: true };

export function useFollowUser() {
  const [mutate, { loading }] = useMutation(FollowUserDocument, { context });
  const followUser = useCallback(
    (username: string) =>
      settleMutation(
        () => mutate({ variables: { input: { username } } }),
        (data) => data.followUser,
      ),
    [mutate],
  );
  return { followUser, loading };
}
