import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../../ui/icons';
import { Logo } from './Logo';
import { MOBILE_MENU_ID } from './TopBar';
import styles from './MobileMenu.module.css';

export const MENU_OPEN_BODY_CLASS = 'menu-open';

/**
 * The full-screen menu of small screens, with the sidebar's content (`children`, which the layout
 * loads with the data it shows). While open the body carries the `menu-open` class (which stops
 * the page behind from scrolling). The layout closes it on every navigation.
 */
export function MobileMenu({
  open,
  onClose,
  children,
}: {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const previouslyFocused =
      document.activeElement instanceof HTMLElement ? document.activeElement : null;
    document.body.classList.add(MENU_OPEN_BODY_CLASS);
    closeRef.current?.focus();
    return () => {
      document.body.classList.remove(MENU_OPEN_BODY_CLASS);
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <div
      id={MOBILE_MENU_ID}
      className={styles.menu}
      role="dialog"
      aria-modal="true"
      aria-label={t('nav.menu')}
      onKeyDown={onKeyDown}
    >
      <div className={styles.header}>
        <Logo />
        <button ref={closeRef} type="button" className={styles.close} onClick={onClose}>
          <CloseIcon size={20} />
          <span>{t('nav.closeMenu')}</span>
        </button>
      </div>
      <div className={styles.body}>{children}</div>
    </div>
  );
}
