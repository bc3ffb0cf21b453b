import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import { ChallengeBySlugDocument, type ChallengeDetail } from '../graphql/ChallengeBySlug';

export interface ChallengeState {
  challenge: ChallengeDetail | null;
  /** The envelope of an unsuccessful answer (challenge_not_found, invalid_slug, ...), else null. */
  failure: ResponseStatus | null;
  requestFailed: boolean;
  loading: boolean;
  refetch: () => Promise<void>;
}

export function useGetChallenge(slug: string): ChallengeState {
  const { data, loading, error, refetch } = useQuery(ChallengeBySlugDocument, {
    variables: { slug },
  });
  const result = data?.getChallengeBySlug;
  const challenge = result?.status.success ? (result.challenge ?? null) : null;
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
