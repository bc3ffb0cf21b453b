import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  ResolveEscrowHoldDocument,
  type ResolveEscrowHoldMutationVariables,
} from '../graphql/ResolveEscrowHold';

const context: AppOperationContext = { suppressErrorToast: true };

/** Releases or captures a stray escrow hold, once; the dialog tells every outcome. */
export function useResolveEscrowHold() {
  const [mutate, { loading }] = useMutation(ResolveEscrowHoldDocument, { context });
  const resolveEscrowHold = useCallback(
    (input: ResolveEscrowHoldMutationVariables['input']) =>
      settleMutation(
        () => mutate({ variables: { input } }),
        (data) => data.resolveEscrowHold,
      ),
    [mutate],
  );
  return { resolveEscrowHold, loading };
}
