import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PlusIcon } from '../../../ui/icons';
import styles from './FloatingStartButton.module.css';

const CREATE_PATH = '/challenge/create';

/** True for /challenge/create and every page under it (not for e.g. /challenge/create-x/detail). */
export function isUnderCreateChallenge(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '');
  return path === CREATE_PATH || path.startsWith(`${CREATE_PATH}/`);
}

/** Round "start a challenge" button, bottom-right, on every page except the create flow itself. */
export function FloatingStartButton() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  if (isUnderCreateChallenge(pathname)) return null;
  return (
    <Link to="/challenge/create/step-1" className={styles.fab} data-testid="floating-start-button">
      <PlusIcon size={28} strokeWidth={2.5} />
      <span className={styles.tooltip}>{t('nav.startChallenge')}</span>
    </Link>
  );
}
