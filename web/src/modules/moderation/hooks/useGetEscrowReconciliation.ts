import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import {
  EscrowReconciliationDocument,
  type EscrowReconciliationQuery,
} from '../graphql/EscrowReconciliation';

export type EscrowReconciliation = Omit<
  NonNullable<EscrowReconciliationQuery['escrowReconciliation']>,
  'status'
>;

export interface EscrowReconciliationState {
  reconciliation: EscrowReconciliation | null;
  failure: ResponseStatus | null;
  loading: boolean;
  fetching: boolean;
  refetch: () => void;
}

/** Escrow holds compared with live challenges (both lists empty: everything matches). */
export function useGetEscrowReconciliation(): EscrowReconciliationState {
  const { data, loading, refetch } = useQuery(EscrowReconciliationDocument, {
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: true,
  });
  const result = data?.escrowReconciliation;
  const reconciliation = result?.status.success ? result : null;
  return {
    reconciliation,
    failure: result && !result.status.success ? result.status : null,
    loading: loading && !reconciliation,
    fetching: loading,
    refetch: () => void refetch().catch(() => undefined),
  };
}
