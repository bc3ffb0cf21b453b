import { useQuery } from '@apollo/client/react';
import { useEffect } from 'react';
import { usePageData } from '../../../app/pageData';
import type { ResponseStatus } from '../../../lib/graphql';
import { ChallengeBySlugDocument, type ChallengeDetail } from '../graphql/ChallengeBySlug';

/**
 * How often an open challenge page asks again while the challenge waits for a video: the other
 * party's upload moves it on (to review, once media processed it) without this viewer doing
 * anything, and the page should show that without a reload (docs/adr/0053).
 */
export const LIVE_POLL_MS = 10_000;

/** The states another party's video moves on: a page showing one keeps asking. */
const AWAITING_VIDEO = ['accepted'];

export interface ChallengeState {
  challenge: ChallengeDetail | null;
  /** The envelope of an unsuccessful answer (challenge_not_found, invalid_slug, ...), else null. */
  failure: ResponseStatus | null;
  requestFailed: boolean;
  loading: boolean;
  refetch: () => Promise<void>;
}

/** A hidden tab (another tab in front, a locked phone) does not ask. */
const hidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

export function useGetChallenge(slug: string): ChallengeState {
  // The answer the gateway put into the page, when it did (docs/adr/0100): no question asked.
  const fromPage = usePageData(ChallengeBySlugDocument, { slug });
  const { data, loading, error, refetch, startPolling, stopPolling } = useQuery(
    ChallengeBySlugDocument,
    { variables: { slug }, skipPollAttempt: hidden, ...fromPage },
  );
  const result = data?.getChallengeBySlug;
  const challenge = result?.status.success ? (result.challenge ?? null) : null;
  const awaitingVideo = challenge !== null && AWAITING_VIDEO.includes(challenge.status);
  useEffect(() => {
    if (!awaitingVideo) return;
    startPolling(LIVE_POLL_MS);
    return () => stopPolling();
  }, [awaitingVideo, startPolling, stopPolling]);
  return {
    challenge,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !result,
    loading: loading && !result,
    refetch: () =>
      refetch()
        .then(() => undefined)
        .catch(() => undefined),
  };
}
