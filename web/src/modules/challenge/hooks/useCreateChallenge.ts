import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { CreateChallengeDocument, type CreateChallengeInput } from '../graphql/CreateChallenge';

// Step 2 explains a refusal itself (insufficient_funds leads to a top-up).
const context: AppOperationContext = { suppressErrorToast: true };

/** Creates the challenge(s) of a draft; the outcome carries `challenges [{slug, challengeName}]`. */
export function useCreateChallenge() {
  const [mutate, { loading }] = useMutation(CreateChallengeDocument, { context });
  const createChallenge = useCallback(
    (input: CreateChallengeInput) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.createChallenge,
      ),
    [mutate],
  );
  return { createChallenge, loading };
}
