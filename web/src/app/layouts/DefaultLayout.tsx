import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { FloatingStartButton } from '../../modules/shell/components/FloatingStartButton';
import { Logo } from '../../modules/shell/components/Logo';
import { MobileMenu } from '../../modules/shell/components/MobileMenu';
import { SidebarContent } from '../../modules/shell/components/SidebarContent';
import { TopBar } from '../../modules/shell/components/TopBar';
import styles from './Layouts.module.css';

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
      <MobileMenu open={menuOpen} onClose={() => setMenuOpenedAt(null)} />
      <aside className={styles.sidebar} aria-label={t('nav.sidebar')}>
        <div className={styles.sidebarLogo}>
          <Logo />
        </div>
        <SidebarContent />
      </aside>
      <main id="main-content" className={styles.main} tabIndex={-1}>
        <div className={styles.container}>
          <Outlet />
        </div>
      </main>
      <FloatingStartButton />
    </div>
  );
}
