import { RefusedVideosDocument } from '../graphql/RefusedVideos';
import { usePagedList } from './usePagedList';

export const REFUSED_PER_PAGE = 10;

/** One page of refused proof videos, newest first. */
export function useGetRefusedVideos(page: number) {
  return usePagedList(
    RefusedVideosDocument,
    { page, itemsPerPage: REFUSED_PER_PAGE },
    (data) => data.paginatedListOfRefusedVideos,
  );
}
