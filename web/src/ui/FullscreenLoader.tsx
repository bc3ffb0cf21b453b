import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from './Spinner';
import styles from './FullscreenLoader.module.css';

/** A full-screen overlay with a spinner; blocks interaction while something important loads. */
export function FullscreenLoader({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className={styles.overlay} role="status" aria-live="polite">
      <Spinner size="lg" />
      <span className={styles.label}>{label ?? t('ui.loading')}</span>
    </div>
  );
}

interface FullscreenLoaderControls {
  show: (label?: string) => void;
  hide: () => void;
}

const FullscreenLoaderContext = createContext<FullscreenLoaderControls | null>(null);

export function FullscreenLoaderProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<{ count: number; label: string | undefined }>({
    count: 0,
    label: undefined,
  });
  const show = useCallback(
    (label?: string) => setState((s) => ({ count: s.count + 1, label })),
    [],
  );
  const hide = useCallback(
    () => setState((s) => ({ count: Math.max(0, s.count - 1), label: s.label })),
    [],
  );
  const controls = useMemo(() => ({ show, hide }), [show, hide]);
  return (
    <FullscreenLoaderContext value={controls}>
      {children}
      {state.count > 0 ? (
        <FullscreenLoader {...(state.label ? { label: state.label } : {})} />
      ) : null}
    </FullscreenLoaderContext>
  );
}

export function useFullscreenLoader(): FullscreenLoaderControls {
  const controls = useContext(FullscreenLoaderContext);
  if (!controls)
    throw new Error('useFullscreenLoader must be used inside <FullscreenLoaderProvider>');
  return controls;
}
