import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { FloatingStartButton } from '../../modules/shell/components/FloatingStartButton';
import { Logo } from '../../modules/shell/components/Logo';
import { MobileMenu } from '../../modules/shell/components/MobileMenu';
import { TopBar } from '../../modules/shell/components/TopBar';
import { PageLoader } from '../../ui/PageLoader';
import { dataComponent } from '../dataComponent';
import styles from './Layouts.module.css';

/** The sidebar shows who is logged in: its code comes with Apollo's (dataComponent.tsx). */
const SidebarContent = dataComponent(() =>
  import('../../modules/shell/components/SidebarContent').then((module) => module.SidebarContent),
);

export function DefaultLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  // The menu belongs to the location it was opened on, so any navigation closes it.
  const [menuOpenedAt, setMenuOpenedAt] = useState<string | null>(null);
  const menuOpen = menuOpenedAt === location.key;

  return (
    <div className={styles.defaultLayout}>
      <a className={styles.skipLink} href="#main-content">
        {t('app.skipToContent')}
      </a>
      <TopBar menuOpen={menuOpen} onOpenMenu={() => setMenuOpenedAt(location.key)} />
      <MobileMenu open={menuOpen} onClose={() => setMenuOpenedAt(null)}>
        <SidebarContent />
      </MobileMenu>
      <aside className={styles.sidebar} aria-label={t('nav.sidebar')}>
        <div className={styles.sidebarLogo}>
          <Logo />
        </div>
        <SidebarContent />
      </aside>
      <main id="main-content" className={styles.main} tabIndex={-1}>
        <div className={styles.container}>
          {/* The page's code loads on first visit (routes.tsx); a prerendered page stays. */}
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </div>
      </main>
      <FloatingStartButton />
    </div>
  );
}
