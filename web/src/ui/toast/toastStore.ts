export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

export interface ToastStoreOptions {
  /** How long a toast stays, in ms. */
  durationMs?: number;
  /** At most this many toasts at once; the oldest gives way. */
  maxToasts?: number;
  /** An error identical to one shown less than this long ago is dropped. */
  errorDedupeMs?: number;
  now?: () => number;
}

export interface ToastStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): readonly Toast[];
  /** Shows a toast; returns its id, or null when it was suppressed as a duplicate error. */
  show(kind: ToastKind, message: string): number | null;
  success(message: string): number | null;
  error(message: string): number | null;
  info(message: string): number | null;
  dismiss(id: number): void;
  /** Stops the auto-dismiss clock (e.g. while hovered or focused). */
  pause(id: number): void;
  resume(id: number): void;
  clear(): void;
}

export const TOAST_DURATION_MS = 5000;
export const TOAST_MAX = 20;
export const TOAST_ERROR_DEDUPE_MS = 3000;

interface Timer {
  handle: ReturnType<typeof setTimeout> | null;
  startedAt: number;
  remaining: number;
}

export function createToastStore({
  durationMs = TOAST_DURATION_MS,
  maxToasts = TOAST_MAX,
  errorDedupeMs = TOAST_ERROR_DEDUPE_MS,
  now = Date.now,
}: ToastStoreOptions = {}): ToastStore {
  let toasts: readonly Toast[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();
  const timers = new Map<number, Timer>();
  const lastErrorAt = new Map<string, number>();

  const emit = () => {
    for (const listener of listeners) listener();
  };

  const stopTimer = (id: number) => {
    const timer = timers.get(id);
    if (timer?.handle) clearTimeout(timer.handle);
    timers.delete(id);
  };

  const startTimer = (id: number, remaining: number) => {
    const handle = setTimeout(() => store.dismiss(id), remaining);
    timers.set(id, { handle, startedAt: now(), remaining });
  };

  const store: ToastStore = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => toasts,
    show(kind, message) {
      const at = now();
      if (kind === 'error') {
        const previous = lastErrorAt.get(message);
        if (previous !== undefined && at - previous < errorDedupeMs) return null;
        lastErrorAt.set(message, at);
        for (const [text, shownAt] of lastErrorAt) {
          if (at - shownAt >= errorDedupeMs) lastErrorAt.delete(text);
        }
      }
      const toast: Toast = { id: nextId++, kind, message };
      let next = [...toasts, toast];
      while (next.length > maxToasts) {
        const [oldest, ...rest] = next;
        if (oldest) stopTimer(oldest.id);
        next = rest;
      }
      toasts = next;
      startTimer(toast.id, durationMs);
      emit();
      return toast.id;
    },
    success: (message) => store.show('success', message),
    error: (message) => store.show('error', message),
    info: (message) => store.show('info', message),
    dismiss(id) {
      stopTimer(id);
      if (!toasts.some((toast) => toast.id === id)) return;
      toasts = toasts.filter((toast) => toast.id !== id);
      emit();
    },
    pause(id) {
      const timer = timers.get(id);
      if (!timer?.handle) return;
      clearTimeout(timer.handle);
      timers.set(id, {
        handle: null,
        startedAt: timer.startedAt,
        remaining: timer.remaining - (now() - timer.startedAt),
      });
    },
    resume(id) {
      const timer = timers.get(id);
      if (!timer || timer.handle) return;
      startTimer(id, Math.max(0, timer.remaining));
    },
    clear() {
      for (const id of timers.keys()) stopTimer(id);
      toasts = [];
      lastErrorAt.clear();
      emit();
    },
  };
  return store;
}
