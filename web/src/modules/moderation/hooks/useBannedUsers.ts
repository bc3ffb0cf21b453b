import { useMutation, useQuery } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { BannedUsersDocument, UnbanUserDocument } from '../graphql/BannedUsers';
import type { BanType } from '../graphql/Reports';

export const BANNED_PER_PAGE = 20;
const context: AppOperationContext = { suppressErrorToast: true };

/** One page of soft- or hard-banned users. */
export function useGetBannedUsers(type: BanType, page: number) {
  const { data, previousData, loading, refetch } = useQuery(BannedUsersDocument, {
    variables: { type, page, itemsPerPage: BANNED_PER_PAGE },
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: true,
  });
  const result = (data ?? previousData)?.paginatedListOfBannedUsers;
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

export function useUnbanUser() {
  const [mutate, { loading }] = useMutation(UnbanUserDocument, { context });
  const unbanUser = useCallback(
    (userId: string) =>
      settleMutation(
        () => mutate({ variables: { input: { userId } } }),
        (data) => data.unbanUser,
      ),
    [mutate],
  );
  return { unbanUser, loading };
}
