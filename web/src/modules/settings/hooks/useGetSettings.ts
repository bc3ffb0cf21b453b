import { useQuery } from '@apollo/client/react';
import type { ResponseStatus } from '../../../lib/graphql';
import { SettingsDocument, type UserSettings } from '../graphql/Settings';

export interface SettingsState {
  settings: UserSettings | null;
  /** The envelope of an unsuccessful answer, else null. */
  failure: ResponseStatus | null;
  /** The request itself failed and there is nothing to show. */
  requestFailed: boolean;
  loading: boolean;
  refetch: () => void;
}

export function useGetSettings(): SettingsState {
  const { data, loading, error, refetch } = useQuery(SettingsDocument, {
    fetchPolicy: 'network-only',
  });
  const result = data?.getSettings;
  const settings = result?.status.success ? (result.settings ?? null) : null;
  return {
    settings,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !settings,
    loading: loading && !settings,
    refetch: () => void refetch().catch(() => undefined),
  };
}
