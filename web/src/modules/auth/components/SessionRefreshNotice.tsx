import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/Button';
import styles from '../../shell/components/NewVersionNotice.module.css';
import { useGetCurrentUser } from '../hooks/useGetCurrentUser';

/**
 * Says that the session check failed (a 429 or 5xx after the client's retry) instead of showing
 * a logged-in person as logged out; "Try again" asks once more (issue 22, point 3).
 */
export function SessionRefreshNotice() {
  const { t } = useTranslation();
  const { refreshFailed, retry } = useGetCurrentUser();
  if (!refreshFailed) return null;
  return (
    <div className={styles.notice} role="status">
      <p className={styles.text}>{t('auth.sessionCheck.notice')}</p>
      <div className={styles.actions}>
        <Button variant="action-gradient" size="sm" onClick={retry}>
          {t('auth.sessionCheck.retry')}
        </Button>
      </div>
    </div>
  );
}
