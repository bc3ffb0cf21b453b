import { useMutation, useQuery } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  ModeratorVerifyUserDocument,
  UnverifiedUsersDocument,
  type VerifyDecision,
} from '../graphql/UnverifiedUsers';

export const UNVERIFIED_PER_PAGE = 20;
const context: AppOperationContext = { suppressErrorToast: true };

/** One page of accounts waiting for verification, oldest first. */
export function useGetUnverifiedUsers(page: number) {
  const { data, previousData, loading, refetch } = useQuery(UnverifiedUsersDocument, {
    variables: { input: { page, itemsPerPage: UNVERIFIED_PER_PAGE } },
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: true,
  });
  const result = (data ?? previousData)?.paginatedListOfUnverifiedUsers;
  const items = result?.status.success ? result.items : null;
  return {
    items,
    pagination: result?.status.success ? (result.pagination ?? null) : null,
    failure: result && !result.status.success ? result.status : null,
    loading: loading && !items,
    fetching: loading,
    refetch: async () => {
      await refetch().catch(() => undefined);
    },
  };
}

export function useModeratorVerifyUser() {
  const [mutate, { loading }] = useMutation(ModeratorVerifyUserDocument, { context });
  const verifyUser = useCallback(
    (userId: string, choice: VerifyDecision) =>
      settleMutation(
        () => mutate({ variables: { input: { userId, ...choice } } }),
        (data) => data.moderatorVerifyUser,
      ),
    [mutate],
  );
  return { verifyUser, loading };
}
