import { useQuery } from '@apollo/client/react';
import type { AppOperationContext } from '../../../app/apolloClient';
import type { ResponseStatus } from '../../../lib/graphql';
import { EmailPreferencesDocument, type EmailPreferences } from '../graphql/EmailPreferences';

export interface EmailPreferencesState {
  preferences: EmailPreferences | null;
  /** The envelope of an unsuccessful answer (unauthorized, expired_credentials...), else null. */
  failure: ResponseStatus | null;
  /** The request itself failed and there is nothing to show. */
  requestFailed: boolean;
  loading: boolean;
  refetch: () => void;
}

// The page explains a refused link itself; no toast on top of it.
const context: AppOperationContext = { suppressErrorToast: true };

/** By the token of an e-mail's link when there is one, else the logged-in user's. */
export function useGetEmailPreferences(token: string | null): EmailPreferencesState {
  const { data, loading, error, refetch } = useQuery(EmailPreferencesDocument, {
    variables: { input: { token } },
    fetchPolicy: 'network-only',
    context,
  });
  const result = data?.getEmailPreferences;
  const preferences = result?.status.success ? (result.emailPreferences ?? null) : null;
  return {
    preferences,
    failure: result && !result.status.success ? result.status : null,
    requestFailed: Boolean(error) && !preferences,
    loading: loading && !preferences,
    refetch: () => void refetch().catch(() => undefined),
  };
}
