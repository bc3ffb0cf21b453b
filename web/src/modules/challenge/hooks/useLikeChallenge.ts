import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { LikeChallengeDocument, type LikeChallengeMutation } from '../graphql/LikeChallenge';

// The respect button says itself what went wrong.
const context: AppOperationContext = { suppressErrorToast: true };

export interface RespectState {
  id: string;
  slug: string;
  hasLiked: boolean;
  challengeLikesCount: number;
}

/**
 * Toggles a respect optimistically: the cached challenge shows the new state at once, and Apollo
 * drops that guess when the answer comes; a refused or lost toggle leaves the cache as it was.
 */
export function useLikeChallenge() {
  const [mutate, { loading }] = useMutation(LikeChallengeDocument, { context });
  const toggleRespect = useCallback(
    (challenge: RespectState) => {
      const liked = !challenge.hasLiked;
      const predicted = Math.max(0, challenge.challengeLikesCount + (liked ? 1 : -1));
      return settleMutation(
        () =>
          mutate({
            variables: { slug: challenge.slug },
            optimisticResponse: {
              likeChallenge: {
                __typename: 'LikeChallengeResult',
                status: { __typename: 'Status', success: true, identifier: 'ok', message: null },
                result: liked ? 'liked' : 'unliked',
                liked,
                challengeLikesCount: predicted,
              },
              // The typed result leaves out the __typename fields the cache writes.
            } as LikeChallengeMutation,
            update(cache, { data }) {
              const answer = data?.likeChallenge;
              if (!answer?.status.success || answer.liked == null) return;
              const count = answer.challengeLikesCount;
              cache.modify({
                id: cache.identify({ __typename: 'Challenge', id: challenge.id }),
                fields: {
                  hasLiked: () => answer.liked,
                  challengeLikesCount: (current: number) => count ?? current,
                },
              });
            },
          }),
        (data) => data.likeChallenge,
      );
    },
    [mutate],
  );
  return { toggleRespect, loading };
}
