import { createContext, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';

/**
 * A sign-up in progress (spec section 3, "verifying user"): the inbox was proven by the code or by
 * the link, but there is no account yet. Held in memory only: the proof is a credential.
 */
export type VerifyingUser =
  | { type: 'code'; email: string; code: string }
  | { type: 'link'; email: string; hash: string; expires: number };

export interface VerifyingUserState {
  verifying: VerifyingUser | null;
  setVerifying: (value: VerifyingUser | null) => void;
}

/**
 * Where the sign-up in progress lives. The app creates it next to the Apollo client, so that a 401
 * (the session is gone) can clear it outside React as well.
 */
export interface VerifyingUserStore {
  get: () => VerifyingUser | null;
  set: (value: VerifyingUser | null) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createVerifyingUserStore(): VerifyingUserStore {
  let current: VerifyingUser | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set: (value) => {
      if (value === current) return;
      current = value;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const VerifyingUserContext = createContext<VerifyingUserState | null>(null);

export function VerifyingUserProvider({
  store: given,
  children,
}: {
  store?: VerifyingUserStore;
  children: ReactNode;
}) {
  const [store] = useState(() => given ?? createVerifyingUserStore());
  const verifying = useSyncExternalStore(store.subscribe, store.get, store.get);
  const value = useMemo(() => ({ verifying, setVerifying: store.set }), [verifying, store]);
  return <VerifyingUserContext value={value}>{children}</VerifyingUserContext>;
}
