import { useCallback, useSyncExternalStore } from 'react';
import { useModalRoute } from './hooks/useModalRoute';

/** Why an account cannot log in (identity's Suspension); reason null: staff gave none. */
export interface Suspension {
  type: string;
  reason: string | null;
  since: string | null;
}

/**
 * What the suspension dialog shows: the details from a log-in answer (the person proved who they
 * are), or `unknown` when a session's request was refused as `banned_user` (the gateway knows
 * the ban, not its reason). Kept for this tab, so a reload keeps the dialog's text.
 */
export type SuspensionNotice = { kind: 'known'; suspension: Suspension } | { kind: 'unknown' };

const KEY = 'suspension';
const listeners = new Set<() => void>();
let current: SuspensionNotice | null = read();

function read(): SuspensionNotice | null {
  try {
    const stored = sessionStorage.getItem(KEY);
    return stored ? (JSON.parse(stored) as SuspensionNotice) : null;
  } catch {
    return null;
  }
}

export function setSuspensionNotice(notice: SuspensionNotice | null): void {
  current = notice;
  try {
    if (notice) sessionStorage.setItem(KEY, JSON.stringify(notice));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Private mode: the dialog still shows for this page.
  }
  for (const listener of listeners) listener();
}

export function useSuspensionNotice(): SuspensionNotice | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}

/**
 * For the log-in hooks: a `banned_user` answer opens the suspension dialog (in place of the
 * log-in dialog) with what the answer says; true when it did.
 */
export function useShowSuspension() {
  const { switchModal } = useModalRoute();
  return useCallback(
    (identifier: string | null | undefined, suspension: Suspension | null | undefined) => {
      if (identifier !== 'banned_user') return false;
      setSuspensionNotice(suspension ? { kind: 'known', suspension } : { kind: 'unknown' });
      switchModal('suspended');
      return true;
    },
    [switchModal],
  );
}
