import { useQuery } from '@apollo/client/react';
import { FollowersDocument } from '../graphql/Followers';
import { FOLLOWS_PAGE_SIZE, followsPageState, type FollowsPageState } from './followsPage';

/** One page of the users who follow `username`. */
export function useGetFollowers(username: string, page: number): FollowsPageState {
  const { data, loading, error } = useQuery(FollowersDocument, {
    variables: { username, page, itemsPerPage: FOLLOWS_PAGE_SIZE },
  });
  return followsPageState(data?.getFollowers, loading, error);
}
