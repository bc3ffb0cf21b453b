import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import { MoneyTotalsDocument, type MoneyTotals } from '../graphql/MoneyTotals';

export interface MoneyTotalsState {
  totals: MoneyTotals | null;
  failure: ResponseStatus | null;
  loading: boolean;
  fetching: boolean;
  refetch: () => void;
}

/** The money figures of the wallet ledger, in cents. */
export function useGetMoneyTotals(): MoneyTotalsState {
  const { data, loading, refetch } = useQuery(MoneyTotalsDocument, {
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: true,
  });
  const result = data?.totalMoneyInCirculation;
  const totals = result?.status.success ? (result.totals ?? null) : null;
  return {
    totals,
    failure: result && !result.status.success ? result.status : null,
    loading: loading && !totals,
    fetching: loading,
    refetch: () => void refetch().catch(() => undefined),
  };
}
