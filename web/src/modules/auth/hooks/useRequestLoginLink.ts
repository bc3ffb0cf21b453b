import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { reportMutationFailure } from '../../../lib/reportMutationFailure';
import { useToasts } from '../../../ui/toast/Toasts';
import { RequestLoginLinkDocument } from '../graphql/RequestLoginLink';

/** Asks the server to e-mail a login link and code. Resolves to true when it was sent. */
export function useRequestLoginLink() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const [mutate, { loading }] = useMutation(RequestLoginLinkDocument);

  const requestLoginLink = useCallback(
    async (email: string, originUrl: string): Promise<boolean> => {
      try {
        const { data, error } = await mutate({
          variables: { input: { email: email.trim(), originUrl } },
        });
        const status = data?.requestLoginLink?.status;
        if (!error && status?.success) return true;
        reportMutationFailure(toasts, t, { error, status });
      } catch (error) {
        reportMutationFailure(toasts, t, { error });
      }
      return false;
    },
    [mutate, toasts, t],
  );

  return { requestLoginLink, loading };
}
