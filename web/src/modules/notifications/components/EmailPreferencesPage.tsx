import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/usePageMeta';
import { MailIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';

/** Reached from the link in every e-mail, so it works without logging in. */
export function EmailPreferencesPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.emailPreferences.title'));
  return (
    <PagePlaceholder
      icon={<MailIcon size={28} />}
      title={t('pages.emailPreferences.title')}
      description={t('pages.emailPreferences.description')}
    />
  );
}
