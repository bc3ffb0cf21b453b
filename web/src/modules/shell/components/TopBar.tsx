import { useTranslation } from 'react-i18next';
import { MenuIcon } from '../../../ui/icons';
import { Logo } from './Logo';
import styles from './TopBar.module.css';

export const MOBILE_MENU_ID = 'mobile-menu';

/** Small screens only: the logo and the button that opens the full-screen menu. */
export function TopBar({ menuOpen, onOpenMenu }: { menuOpen: boolean; onOpenMenu: () => void }) {
  const { t } = useTranslation();
  return (
    <header className={styles.topBar}>
      <Logo />
      <button
        type="button"
        className={styles.menuButton}
        onClick={onOpenMenu}
        aria-expanded={menuOpen}
        aria-controls={MOBILE_MENU_ID}
        aria-haspopup="dialog"
      >
        <MenuIcon size={20} />
        <span>{t('nav.menu')}</span>
      </button>
    </header>
  );
}
