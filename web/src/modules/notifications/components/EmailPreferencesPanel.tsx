import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errorMessages';
import { Button, ButtonLink } from '../../../ui/Button';
import { AlertIcon } from '../../../ui/icons';
import { PageLoader } from '../../../ui/PageLoader';
import layout from '../../../ui/layout.module.css';
import { useModalRoute } from '../../auth/hooks/useModalRoute';
import { useGetEmailPreferences } from '../hooks/useGetEmailPreferences';
import { EmailPreferencesForm } from './EmailPreferencesForm';
import styles from './Notifications.module.css';

/** Loads the preferences (by the e-mail link's token, or the logged-in user's) and shows the form. */
export function EmailPreferencesPanel({
  token,
  isLoggedIn,
}: {
  token: string | null;
  isLoggedIn: boolean;
}) {
  const { t } = useTranslation();
  const { openModal } = useModalRoute();
  const { preferences, failure, loading, refetch } = useGetEmailPreferences(token);
  if (loading) return <PageLoader />;
  if (preferences) return <EmailPreferencesForm preferences={preferences} token={token} />;

  // A link that is not (or no longer) good: say so, and offer the way in without it.
  const identifier = failure?.identifier;
  const linkProblem =
    token && identifier === 'expired_credentials'
      ? t('notifications.preferences.linkExpired')
      : token && identifier === 'unauthorized'
        ? t('notifications.preferences.linkInvalid')
        : null;
  return (
    <div className={layout.alert} role="alert">
      <AlertIcon size={20} />
      <div className={layout.alertBody}>
        <p>{t('notifications.preferences.loadFailed')}</p>
        <p>{linkProblem ?? (failure ? errorText(t, identifier, failure.message) : null)}</p>
        <div className={styles.alertActions}>
          {linkProblem && !isLoggedIn ? (
            <Button variant="primary" size="sm" onClick={() => openModal('login-magic-link')}>
              {t('notifications.preferences.logIn')}
            </Button>
          ) : null}
          {linkProblem && isLoggedIn ? (
            <ButtonLink variant="primary" size="sm" to="/settings/edit-email-preferences">
              {t('notifications.preferences.openSettings')}
            </ButtonLink>
          ) : null}
          {!linkProblem ? (
            <Button variant="secondary" size="sm" onClick={refetch}>
              {t('notifications.retry')}
            </Button>
          ) : null}
        </div>
      </div>
    </div>
  );
}
