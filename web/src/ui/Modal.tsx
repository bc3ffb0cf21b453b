import {
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { cx } from '../lib/cx';
import { CloseIcon } from './icons';
import styles from './Modal.module.css';
import { ScrollRegion } from './ScrollRegion';

export type ModalSize = 'sm' | 'md' | 'lg';
export type ModalPosition = 'default' | 'bottom';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  /** Maximum width: sm small, md 36rem, lg 56rem. */
  size?: ModalSize;
  /** `bottom` docks the dialog to the bottom edge like a sheet. */
  position?: ModalPosition;
  /** A persistent modal ignores clicks outside it. */
  persistent?: boolean;
  /** A modal that is not escapable ignores the Escape key and has no close button. */
  notEscapable?: boolean;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

let openModalCount = 0;

function lockBody() {
  openModalCount += 1;
  document.body.classList.add('modal-open');
}

function unlockBody() {
  openModalCount = Math.max(0, openModalCount - 1);
  if (openModalCount === 0) document.body.classList.remove('modal-open');
}

function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) =>
      !element.hasAttribute('disabled') && element.getAttribute('aria-hidden') !== 'true',
  );
}

export function Modal(props: ModalProps) {
  if (!props.open) return null;
  return createPortal(<ModalDialog {...props} />, document.body);
}

function ModalDialog({
  onClose,
  title,
  description,
  size = 'md',
  position = 'default',
  persistent = false,
  notEscapable = false,
  children,
  footer,
  className,
}: ModalProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const pointerDownOnBackdrop = useRef(false);
  // Read while rendering: React focuses an autoFocus field inside while it commits, before any
  // effect of this dialog runs, and the opener would be lost.
  const [previouslyFocused] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );

  // A layout effect: focus moves in with the dialog and back out as it goes, in the same commit,
  // never left on the body for a frame (a screen reader would announce the page).
  useLayoutEffect(() => {
    lockBody();
    const panel = panelRef.current;
    if (panel && !panel.contains(document.activeElement)) {
      const preferred = panel.querySelector<HTMLElement>('[data-autofocus]');
      const first = focusableIn(panel).find((element) => !element.hasAttribute('data-modal-close'));
      (preferred ?? first ?? panel).focus();
    }
    return () => {
      unlockBody();
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, [previouslyFocused]);

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (!notEscapable) onClose();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const focusable = focusableIn(panelRef.current);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (
      event.shiftKey &&
      (document.activeElement === first || document.activeElement === panelRef.current)
    ) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const handleBackdropMouseDown = (event: MouseEvent<HTMLDivElement>) => {
    pointerDownOnBackdrop.current = event.target === event.currentTarget;
  };

  const handleBackdropClick = (event: MouseEvent<HTMLDivElement>) => {
    const startedOnBackdrop = pointerDownOnBackdrop.current;
    pointerDownOnBackdrop.current = false;
    if (persistent || !startedOnBackdrop || event.target !== event.currentTarget) return;
    onClose();
  };

  return (
    <div
      className={cx(styles.backdrop, position === 'bottom' && styles.backdropBottom)}
      onMouseDown={handleBackdropMouseDown}
      onClick={handleBackdropClick}
      onKeyDown={handleKeyDown}
      data-testid="modal-backdrop"
    >
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cx(
          styles.panel,
          styles[size],
          position === 'bottom' && styles.bottom,
          className,
        )}
      >
        {/* Not <header>/<footer>: portalled to the body they would be a second banner and
            contentinfo landmark beside the page's own. */}
        <div className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          {notEscapable ? null : (
            <button
              type="button"
              className={styles.close}
              onClick={onClose}
              aria-label={t('ui.modal.close')}
              data-modal-close
            >
              <CloseIcon size={20} />
            </button>
          )}
        </div>
        {description ? (
          <p id={descriptionId} className={styles.description}>
            {description}
          </p>
        ) : null}
        <ScrollRegion className={styles.body}>{children}</ScrollRegion>
        {footer ? <div className={styles.footer}>{footer}</div> : null}
      </div>
    </div>
  );
}
