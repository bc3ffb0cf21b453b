import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import type { AppOperationContext } from '../../../app/apolloClient';
import { settleMutation } from '../../../lib/mutationOutcome';
import { DeleteUserDocument } from '../graphql/DeleteUser';

// The confirmation dialog reports the outcome itself.
const context: AppOperationContext = { suppressErrorToast: true };

/**
 * Requests the deletion of the viewer's account. Refused while the wallet holds money
 * (wallet_contains_money) or a payout is open (user_contains_open_payouts).
 */
export function useDeleteUser() {
  const [mutate, { loading }] = useMutation(DeleteUserDocument, { context });
  const deleteUser = useCallback(
    () =>
      settleMutation(
        () => mutate(),
        (data) => data.deleteUser,
      ),
    [mutate],
  );
  return { deleteUser, loading };
}
