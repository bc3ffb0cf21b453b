import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useState } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { ChallengeTargetDocument } from '../graphql/ChallengeTarget';

/** How long typing pauses before a username is looked up. */
export const TARGET_CHECK_DELAY_MS = 400;

export type TargetCheck =
  /** Nothing to look up (no username, or one the form already refuses). */
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'found'; username: string; displayName: string | null }
  | { state: 'unknown' }
  | { state: 'not-challengeable' }
  /** The look-up itself failed (offline, rate limit): the server decides when it is sent. */
  | { state: 'unchecked' };

const context: AppOperationContext = { suppressErrorToast: true };

/**
 * Looks up the person a challenge is for while it is typed (debounced), so that an unknown
 * username is caught on step 1 and not after step 2. Each answer is kept per username, so a late
 * answer for an earlier spelling never stands for the current one.
 */
export function useChallengeTarget(username: string | null) {
  const client = useApolloClient();
  const [results, setResults] = useState<Record<string, TargetCheck>>({});
  const key = username ? username.toLowerCase() : null;

  const lookUp = useCallback(
    async (name: string): Promise<TargetCheck> => {
      let result: TargetCheck;
      try {
        const { data } = await client.query({
          query: ChallengeTargetDocument,
          variables: { username: name },
          fetchPolicy: 'network-only',
          context,
        });
        const answer = data?.getUserProfile;
        const profile = answer?.profile;
        if (answer?.status.success && profile) {
          result = profile.challengeable
            ? { state: 'found', username: profile.username, displayName: profile.displayName }
            : { state: 'not-challengeable' };
        } else if (answer?.status.identifier === 'user_not_found') result = { state: 'unknown' };
        else if (answer?.status.identifier === 'private_profile') {
          // A private profile is a real person; whether they take challenges is the server's call.
          result = { state: 'found', username: name, displayName: null };
        } else result = { state: 'unchecked' };
      } catch {
        result = { state: 'unchecked' };
      }
      setResults((previous) => ({ ...previous, [name]: result }));
      return result;
    },
    [client],
  );

  useEffect(() => {
    if (!key || results[key]) return;
    const timer = window.setTimeout(() => void lookUp(key), TARGET_CHECK_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [key, results, lookUp]);

  const check: TargetCheck = !key ? { state: 'idle' } : (results[key] ?? { state: 'checking' });

  /** The answer for the current username, looked up at once when it is not known yet. */
  const checkNow = useCallback(
    (): Promise<TargetCheck> =>
      !key
        ? Promise.resolve({ state: 'idle' })
        : results[key]
          ? Promise.resolve(results[key])
          : lookUp(key),
    [key, results, lookUp],
  );

  return { check, checkNow };
}
