import { useApolloClient } from '@apollo/client/react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { switchLanguage } from '../../app/i18n';
import { isAppLanguage } from '../../lib/locale';
import { CurrentUserDocument } from './graphql/CurrentUser';

/**
 * After a log-in: the UI speaks the account's language (issue 22, point 14), read from the
 * profile the reset store just fetched, and remembers it as the choice for the next visit. A
 * profile that cannot be read leaves the language as it is.
 */
export function useTakeAccountLanguage() {
  const client = useApolloClient();
  const { i18n } = useTranslation();
  return useCallback(async () => {
    const result = await client
      .query({ query: CurrentUserDocument, fetchPolicy: 'cache-first' })
      .catch(() => null);
    const locale = result?.data?.getCurrentUserProfile?.profile?.locale;
    if (isAppLanguage(locale) && locale !== i18n.language) await switchLanguage(i18n, locale);
  }, [client, i18n]);
}
