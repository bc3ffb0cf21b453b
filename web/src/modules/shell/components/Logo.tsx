import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cx } from '../../../lib/cx';
import styles from './Logo.module.css';

export function Logo({ inverse = false }: { inverse?: boolean }) {
  const { t } = useTranslation();
  return (
    <Link
      to="/"
      className={cx(styles.logo, inverse && styles.inverse)}
      aria-label={t('nav.homeLabel', { app: t('app.name') })}
    >
      <span className={styles.mark} aria-hidden="true">
        <svg viewBox="0 0 24 24" width="18" height="18">
          <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
        </svg>
      </span>
      <span className={styles.word}>{t('app.name')}</span>
    </Link>
  );
}
