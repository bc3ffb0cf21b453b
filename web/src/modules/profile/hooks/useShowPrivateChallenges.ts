import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToasts } from '../../../ui/toast/Toasts';
import { useUpdateProfile } from '../../settings/hooks/useUpdateProfile';

/**
 * Whether the owner's profile lists include their private challenges: the account's
 * `showPrivateChallenges` setting (false by default; spec section 3), which the profile reads.
 * A change shows at once and is saved with `updateProfile`; when that fails the account's
 * choice comes back and the user is told (as the wallet's show/hide amounts).
 */
export function useShowPrivateChallenges(
  accountChoice: boolean | null | undefined,
): [boolean, (next: boolean) => void] {
  const { t } = useTranslation();
  const toasts = useToasts();
  const { updateProfile } = useUpdateProfile();
  const [pending, setPending] = useState<boolean | null>(null);
  const shown = pending ?? accountChoice ?? false;

  const change = useCallback(
    (next: boolean) => {
      setPending(next);
      void updateProfile({ showPrivateChallenges: next }).then((outcome) => {
        if (outcome.ok) return;
        setPending(null);
        toasts.error(t('profile.lists.showPrivateNotSaved'));
      });
    },
    [t, toasts, updateProfile],
  );
  return [shown, change];
}
