import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToasts } from '../../../ui/toast/Toasts';
import { useUpdateProfile } from '../../settings/hooks/useUpdateProfile';

/**
 * Whether wallet amounts are masked: the account's `hideAvailableAmount` (true by default, so
 * balances stay private on a shared screen), the same in every browser. The toggle shows the new
 * choice at once and saves it with `updateProfile`; when that fails, the old choice comes back
 * and the user is told.
 */
export function useHideAmounts(accountChoice: boolean | null | undefined): [boolean, () => void] {
  const { t } = useTranslation();
  const toasts = useToasts();
  const { updateProfile } = useUpdateProfile();
  // The choice made on this page (shown at once, also while it is being saved).
  const [pending, setPending] = useState<boolean | null>(null);
  const saved = accountChoice ?? true;
  const hidden = pending ?? saved;

  const toggle = useCallback(() => {
    const next = !hidden;
    setPending(next);
    void updateProfile({ hideAvailableAmount: next }).then((outcome) => {
      // Saved: the choice stays (the refetched profile agrees). Not saved: the account's holds.
      if (outcome.ok) return;
      setPending(null);
      toasts.error(t('wallet.hideAmountsNotSaved'));
    });
  }, [hidden, t, toasts, updateProfile]);

  return [hidden, toggle];
}
