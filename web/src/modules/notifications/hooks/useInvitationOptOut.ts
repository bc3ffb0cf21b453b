import { useMutation, useQuery } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import type { ResponseStatus } from '../../../lib/graphql';
import { settleMutation } from '../../../lib/mutationOutcome';
import {
  InvitationOptOutDocument,
  UpdateInvitationOptOutDocument,
  type InvitationOptOut,
} from '../graphql/InvitationOptOut';

// The page explains a refused link itself; no toast on top of it.
const context: AppOperationContext = { suppressErrorToast: true };

export interface InvitationOptOutState {
  optOut: InvitationOptOut | null;
  /** The envelope of an unsuccessful answer (unauthorized for a bad link), else null. */
  failure: ResponseStatus | null;
  loading: boolean;
  refetch: () => void;
}

/** The invited address of an opt-out link's token, and whether it gets invitations. */
export function useGetInvitationOptOut(token: string): InvitationOptOutState {
  const { data, loading, refetch } = useQuery(InvitationOptOutDocument, {
    variables: { input: { token } },
    fetchPolicy: 'network-only',
    context,
  });
  const result = data?.getInvitationOptOut;
  const optOut = result?.status.success ? (result.invitationOptOut ?? null) : null;
  return {
    optOut,
    failure: result && !result.status.success ? result.status : null,
    loading: loading && !optOut,
    refetch: () => void refetch().catch(() => undefined),
  };
}

/** Stops (true) or resumes (false) invitations to the address of the link. */
export function useUpdateInvitationOptOut(token: string) {
  const [mutate, { loading }] = useMutation(UpdateInvitationOptOutDocument, { context });
  const update = useCallback(
    (optedOut: boolean) =>
      settleMutation(
        () => mutate({ variables: { input: { token, optedOut } } }),
        (data) => data.updateInvitationOptOut,
      ),
    [mutate, token],
  );
  return { update, loading };
}
