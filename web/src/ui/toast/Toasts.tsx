import {
  createContext,
  useContext,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type PointerEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from '../../lib/cx';
import { AlertIcon, CheckIcon, CloseIcon, InfoIcon } from '../icons';
import type { Toast, ToastStore } from './toastStore';
import styles from './Toasts.module.css';

const ToastContext = createContext<ToastStore | null>(null);

export function ToastProvider({ store, children }: { store: ToastStore; children: ReactNode }) {
  return (
    <ToastContext value={store}>
      {children}
      <ToastViewport store={store} />
    </ToastContext>
  );
}

export function useToasts(): ToastStore {
  const store = useContext(ToastContext);
  if (!store) throw new Error('useToasts must be used inside <ToastProvider>');
  return store;
}

/**
 * Toasts in a band of their own at the top of the screen (right-aligned from 640 px, the spec's
 * top-right). Its height is published as `--toast-band`, by which the page, its sticky bars,
 * dialogs and the phone menu move down while a toast shows: a toast covers nothing (ADR 84).
 * Errors are announced assertively, the rest politely.
 */
function ToastViewport({ store }: { store: ToastStore }) {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const band = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const publish = () =>
      document.documentElement.style.setProperty(
        '--toast-band',
        `${band.current?.offsetHeight ?? 0}px`,
      );
    publish();
    // A narrower window wraps a message onto more lines.
    window.addEventListener('resize', publish);
    return () => window.removeEventListener('resize', publish);
  }, [toasts]);
  return (
    <section className={styles.viewport} aria-label={t('ui.toast.region')}>
      <div ref={band} className={styles.list} data-toast-band>
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} store={store} />
        ))}
      </div>
    </section>
  );
}

/** Dragging a toast sideways past this share of its width dismisses it. */
const DISMISS_DRAG_RATIO = 0.6;

function ToastItem({ toast, store }: { toast: Toast; store: ToastStore }) {
  const { t } = useTranslation();
  const [offset, setOffset] = useState(0);
  const [dragging, setDragging] = useState(false);
  const drag = useRef<{ startX: number; width: number } | null>(null);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || (event.target as HTMLElement).closest('button')) return;
    drag.current = { startX: event.clientX, width: event.currentTarget.offsetWidth };
    setDragging(true);
    event.currentTarget.setPointerCapture?.(event.pointerId);
    store.pause(toast.id);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setOffset(event.clientX - drag.current.startX);
  };
  const endDrag = () => {
    const current = drag.current;
    drag.current = null;
    setDragging(false);
    if (!current) return;
    if (current.width > 0 && Math.abs(offset) >= current.width * DISMISS_DRAG_RATIO) {
      store.dismiss(toast.id);
    } else {
      setOffset(0);
      store.resume(toast.id);
    }
  };

  const icon =
    toast.kind === 'success' ? (
      <CheckIcon size={18} />
    ) : toast.kind === 'info' ? (
      <InfoIcon size={18} />
    ) : (
      <AlertIcon size={18} />
    );
  return (
    <div
      className={cx(styles.toast, styles[toast.kind], dragging && styles.dragging)}
      style={
        offset
          ? {
              transform: `translateX(${offset}px)`,
              opacity: 1 - Math.min(Math.abs(offset) / 300, 0.7),
            }
          : undefined
      }
      role={toast.kind === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => store.pause(toast.id)}
      onMouseLeave={() => store.resume(toast.id)}
      onFocus={() => store.pause(toast.id)}
      onBlur={() => store.resume(toast.id)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
    >
      <span className={styles.icon}>{icon}</span>
      <p className={styles.message}>{toast.message}</p>
      <button
        type="button"
        className={styles.dismiss}
        onClick={() => store.dismiss(toast.id)}
        aria-label={t('ui.toast.dismiss')}
      >
        <CloseIcon size={16} />
      </button>
    </div>
  );
}
