import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { BannedUsersDocument, UnbanUserDocument } from '../graphql/BannedUsers';
import type { BanType } from '../graphql/Reports';
import { usePagedList } from './usePagedList';

export const BANNED_PER_PAGE = 20;
const context: AppOperationContext = { suppressErrorToast: true };

/** One page of soft- or hard-banned users. */
export function useGetBannedUsers(type: BanType, page: number) {
  return usePagedList(
    BannedUsersDocument,
    { type, page, itemsPerPage: BANNED_PER_PAGE },
    (data) => data.paginatedListOfBannedUsers,
  );
}

export function useUnbanUser() {
  const [mutate, { loading }] = useMutation(UnbanUserDocument, { context });
  const unbanUser = useCallback(
    (userId: string, reason: string) =>
      settleMutation(
        () => mutate({ variables: { input: { userId, reason } } }),
        (data) => data.unbanUser,
      ),
    [mutate],
  );
  return { unbanUser, loading };
}
