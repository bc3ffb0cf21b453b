import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FullscreenLoader } from '../../../ui/FullscreenLoader';
import { ErrorPage } from '../../errors/components/ErrorPage';
import { Logo } from '../../shell/components/Logo';
import { useCheckLocation } from '../hooks/useCheckLocation';
import styles from './LocationGate.module.css';

/**
 * Shows the app only once the visitor's location is allowed (Europe); otherwise the access-denied
 * page with the reason. Nothing of the app (sidebar, dialogs) renders before the verdict.
 */
export function LocationGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useCheckLocation();
  if (location.status === 'checking') return <FullscreenLoader label={t('location.checking')} />;
  if (location.status === 'denied') {
    return (
      <div className={styles.page}>
        <header className={styles.header}>
          <Logo />
        </header>
        <main id="main-content" className={styles.main} tabIndex={-1}>
          <ErrorPage identifier={location.identifier} statusCode={500} />
        </main>
      </div>
    );
  }
  return children;
}
