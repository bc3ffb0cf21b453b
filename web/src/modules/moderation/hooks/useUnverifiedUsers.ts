import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  ModeratorVerifyUserDocument,
  UnverifiedUsersDocument,
  type VerifyDecision,
} from '../graphql/UnverifiedUsers';
import { usePagedList } from './usePagedList';

export const UNVERIFIED_PER_PAGE = 20;
const context: AppOperationContext = { suppressErrorToast: true };

/** One page of accounts waiting for verification, newest first, narrowed by `search` if any. */
export function useGetUnverifiedUsers(page: number, search: string) {
  return usePagedList(
    UnverifiedUsersDocument,
    {
      input: {
        page,
        itemsPerPage: UNVERIFIED_PER_PAGE,
        ...(search.trim() ? { search: search.trim() } : {}),
      },
    },
    (data) => data.paginatedListOfUnverifiedUsers,
  );
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
