import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import { UserProfileDocument, type PublicProfile } from '../graphql/UserProfile';

export interface UserProfileState {
  profile: PublicProfile | null;
  /** The envelope of an unsuccessful answer (user_not_found, private_profile, ...), else null. */
  failure: ResponseStatus | null;
  requestFailed: boolean;
  loading: boolean;
  refetch: () => Promise<void>;
}

export function useGetUserProfile(username: string): UserProfileState {
  const { data, loading, error, refetch } = useQuery(UserProfileDocument, {
    variables: { username },
  });
  const result = data?.getUserProfile;
  const profile = result?.status.success ? (result.profile ?? null) : null;
  return {
    profile,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !result,
    loading: loading && !result,
    refetch: () =>
      refetch()
        .then(() => undefined)
        .catch(() => undefined),
  };
}
