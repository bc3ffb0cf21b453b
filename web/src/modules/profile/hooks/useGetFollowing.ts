import { useQuery } from '@apollo/client/react';
import { FollowingDocument } from '../graphql/Following';
import { FOLLOWS_PAGE_SIZE, followsPageState, type FollowsPageState } from './followsPage';

/** One page of the users `username` follows. */
export function useGetFollowing(username: string, page: number): FollowsPageState {
  const { data, loading, error } = useQuery(FollowingDocument, {
    variables: { username, page, itemsPerPage: FOLLOWS_PAGE_SIZE },
  });
  return followsPageState(data?.getFollowing, loading, error);
}
