import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button } from '../../../ui/Button';
import { MailIcon } from '../../../ui/icons';
import { PageHeader } from '../../../ui/PageHeader';
import { PageLoader } from '../../../ui/PageLoader';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { useModalRoute } from '../../auth/hooks/useModalRoute';
import { EmailPreferencesPanel } from './EmailPreferencesPanel';
import styles from './Notifications.module.css';

// The settings child page and the invitation opt-out page live in this module too (routes.tsx
// loads them from here).
export { EditEmailPreferencesPage } from './EditEmailPreferencesPage';
export { InvitationOptOutPage } from './InvitationOptOutPage';

/**
 * /email-preferences: reached from the link in every e-mail (`?token=`, signed for the
 * recipient), so it works without logging in; without a token, the logged-in user's preferences.
 */
export function EmailPreferencesPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.emailPreferences.title'));
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() || null;
  const { isLoggedIn, loading } = useGetCurrentUser();
  const { openModal } = useModalRoute();

  if (!token && loading) return <PageLoader />;
  if (!token && !isLoggedIn) {
    return (
      <PagePlaceholder
        icon={<MailIcon size={28} />}
        title={t('pages.emailPreferences.title')}
        description={t('notifications.preferences.noLink')}
      >
        <Button variant="action-gradient" onClick={() => openModal('login-magic-link')}>
          {t('notifications.preferences.logIn')}
        </Button>
      </PagePlaceholder>
    );
  }
  return (
    <div className={styles.page}>
      <PageHeader
        title={t('pages.emailPreferences.title')}
        subtitle={t('notifications.preferences.subtitle')}
      />
      <div className={styles.narrow}>
        <EmailPreferencesPanel token={token} isLoggedIn={isLoggedIn} />
      </div>
    </div>
  );
}
