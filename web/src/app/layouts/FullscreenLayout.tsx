import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { Logo } from '../../modules/shell/components/Logo';
import { ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon } from '../../ui/icons';
import { PageLoader } from '../../ui/PageLoader';
import styles from './Layouts.module.css';

/** Full width, no sidebar: for staff tools and pages shown before access is allowed. */
export function FullscreenLayout() {
  const { t } = useTranslation();
  return (
    <div className={styles.fullscreenLayout}>
      <a className={styles.skipLink} href="#main-content">
        {t('app.skipToContent')}
      </a>
      <header className={styles.fullscreenHeader}>
        <Logo />
        <ButtonLink to="/" variant="secondary" size="sm" iconStart={<ArrowLeftIcon size={16} />}>
          {t('nav.backToApp')}
        </ButtonLink>
      </header>
      <main id="main-content" className={styles.fullscreenMain} tabIndex={-1}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
