import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/usePageMeta';
import { EmailPreferencesPanel } from './EmailPreferencesPanel';
import styles from './Notifications.module.css';

/** /settings/edit-email-preferences: the logged-in user's own choices (RequireLogin guards it). */
export function EditEmailPreferencesPage() {
  const { t } = useTranslation();
  usePageMeta(`${t('settings.sections.edit-email-preferences.title')} · ${t('settings.title')}`);
  return (
    <div className={styles.narrow}>
      <EmailPreferencesPanel token={null} isLoggedIn />
    </div>
  );
}
