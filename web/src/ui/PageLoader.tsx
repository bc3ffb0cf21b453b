import { useTranslation } from 'react-i18next';
import { Spinner } from './Spinner';
import styles from './PageLoader.module.css';

/** An in-page loading state (the layout stays visible around it). */
export function PageLoader({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className={styles.loader} role="status" aria-live="polite">
      <Spinner size="lg" />
      <span className="visually-hidden">{label ?? t('ui.loading')}</span>
    </div>
  );
}
