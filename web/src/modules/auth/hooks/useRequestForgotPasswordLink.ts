import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { failureIdentifier, settleMutation } from '../../../lib/mutationOutcome';
import { RequestForgotPasswordLinkDocument } from '../graphql/RequestForgotPasswordLink';

// The page decides what to say: the same confirmation whatever the server answered.
const context: AppOperationContext = { suppressErrorToast: true };

export type RequestForgotPasswordLinkOutcome =
  /** The server answered (whether or not the address has an account, it says the same). */
  | { kind: 'answered' }
  /** Nothing was sent: too many requests, or the server could not be reached. */
  | { kind: 'refused'; identifier: string | null };

export function useRequestForgotPasswordLink() {
  const [mutate, { loading }] = useMutation(RequestForgotPasswordLinkDocument, { context });

  const requestForgotPasswordLink = useCallback(
    async (email: string): Promise<RequestForgotPasswordLinkOutcome> => {
      const outcome = await settleMutation(
        () => mutate({ variables: { input: { email: email.trim() } } }),
        (data) => data.requestForgotPasswordLink,
      );
      if (outcome.ok) return { kind: 'answered' };
      const identifier = failureIdentifier(outcome);
      // A rate limit or a transport failure means no e-mail went out; tell the user to retry.
      // Any answer about the address itself gets the neutral confirmation (no enumeration).
      if (identifier === 'too_many_requests' || outcome.status === null) {
        return { kind: 'refused', identifier };
      }
      return { kind: 'answered' };
    },
    [mutate],
  );

  return { requestForgotPasswordLink, loading };
}
