import { useCallback, useState } from 'react';

export const HIDE_AMOUNTS_STORAGE_KEY = 'wallet.hideAmounts';

function readStored(): boolean | null {
  try {
    const value = window.localStorage.getItem(HIDE_AMOUNTS_STORAGE_KEY);
    return value === null ? null : value === 'true';
  } catch {
    return null;
  }
}

/**
 * Whether wallet amounts are masked. Starts from the user's own choice on this device, else from
 * the profile's `hideAvailableAmount` (true by default, so balances are private on a shared screen).
 */
export function useHideAmounts(profileDefault: boolean | null | undefined): [boolean, () => void] {
  const [hidden, setHidden] = useState(() => readStored() ?? profileDefault ?? true);
  const toggle = useCallback(() => {
    setHidden((value) => {
      const next = !value;
      try {
        window.localStorage.setItem(HIDE_AMOUNTS_STORAGE_KEY, String(next));
      } catch {
        // Not remembered, still toggled.
      }
      return next;
    });
  }, []);
  return [hidden, toggle];
}
