import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import { WalletDocument, type WalletOverview } from '../graphql/Wallet';

export interface WalletState {
  wallet: WalletOverview | null;
  /** The envelope of an unsuccessful answer (e.g. wallet_not_found), else null. */
  failure: ResponseStatus | null;
  /** The request itself failed (network or GraphQL error) and there is nothing to show. */
  requestFailed: boolean;
  loading: boolean;
  refetch: () => void;
}

/** Balances, open payout amount and limits (amounts in integer euro cents). */
export function useGetWallet(): WalletState {
  const { data, loading, error, refetch } = useQuery(WalletDocument, {
    fetchPolicy: 'cache-and-network',
  });
  const result = data?.getWallet;
  const wallet = result?.status.success ? (result.wallet ?? null) : null;
  return {
    wallet,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !wallet,
    loading: loading && !wallet,
    refetch: () => void refetch().catch(() => undefined),
  };
}
