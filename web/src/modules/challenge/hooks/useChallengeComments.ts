import { useMutation, useQuery } from '@apollo/client/react';
import { useCallback, useState } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  AddChallengeCommentDocument,
  ChallengeCommentsDocument,
  DeleteChallengeCommentDocument,
  type ChallengeComment,
} from '../graphql/ChallengeComments';

export const COMMENTS_PAGE_SIZE = 10;
/** The server's limit (1 to 800 characters). */
export const COMMENT_MAX = 800;

// The comments section says itself what went wrong.
const context: AppOperationContext = { suppressErrorToast: true };

/**
 * A challenge's comments, newest first. "Load more" fetches the next page and appends what is not
 * shown yet (a comment added meanwhile shifts the pages by one).
 */
export function useChallengeComments(slug: string) {
  const { data, loading, error, fetchMore, refetch } = useQuery(ChallengeCommentsDocument, {
    variables: { slug, page: 1, itemsPerPage: COMMENTS_PAGE_SIZE },
    fetchPolicy: 'cache-and-network',
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const result = data?.getChallengeComments;
  const ok = result?.status.success === true;
  const comments: ChallengeComment[] | null = ok ? (result.comments ?? []) : null;
  const page = result?.pagination?.currentPage ?? 1;
  const totalCount = (ok && result.pagination?.totalCount) || 0;

  const loadMore = useCallback(async () => {
    setLoadingMore(true);
    try {
      await fetchMore({
        variables: { page: page + 1 },
        updateQuery: (previous, { fetchMoreResult }) => {
          const before = previous.getChallengeComments;
          const next = fetchMoreResult.getChallengeComments;
          if (!next.status.success || !before.comments) return previous as never;
          const known = new Set(before.comments.map((comment) => comment.id));
          return {
            getChallengeComments: {
              ...next,
              comments: [
                ...before.comments,
                ...(next.comments ?? []).filter((comment) => !known.has(comment.id)),
              ],
            },
          };
        },
      });
    } catch {
      // The button stays, so a second try is one click away.
    } finally {
      setLoadingMore(false);
    }
  }, [fetchMore, page]);

  return {
    comments,
    totalCount,
    hasMore: comments !== null && comments.length < totalCount,
    loading: loading && !result,
    loadingMore,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !result,
    loadMore,
    refetch: () =>
      refetch().then(
        () => undefined,
        () => undefined,
      ),
  };
}

export function useAddChallengeComment() {
  const [mutate, { loading }] = useMutation(AddChallengeCommentDocument, { context });
  const addComment = useCallback(
    (slug: string, text: string) =>
      settleMutation(
        () => mutate({ variables: { slug, text } }),
        (data) => data.addChallengeComment,
      ),
    [mutate],
  );
  return { addComment, loading };
}

export function useDeleteChallengeComment() {
  const [mutate, { loading }] = useMutation(DeleteChallengeCommentDocument, { context });
  const deleteComment = useCallback(
    (id: string) =>
      settleMutation(
        () => mutate({ variables: { id } }),
        (data) => data.deleteChallengeComment,
      ),
    [mutate],
  );
  return { deleteComment, loading };
}
