import { useTranslation } from 'react-i18next';
import { useToasts } from '../../../ui/toast/Toasts';

/** The public address of a challenge's page, as its parties share it. */
export function challengeUrl(slug: string): string {
  return `${window.location.origin}/challenge/${encodeURIComponent(slug)}/detail`;
}

/**
 * Copies a challenge's link to the clipboard and says so; where the browser refuses the
 * clipboard, the toast shows the link to copy by hand.
 */
export function useCopyChallengeLink(): (slug: string) => Promise<void> {
  const { t } = useTranslation();
  const toasts = useToasts();
  return async (slug) => {
    const url = challengeUrl(slug);
    try {
      await navigator.clipboard.writeText(url);
      toasts.success(t('challenge.share.copied'));
    } catch {
      toasts.error(t('challenge.share.copyFailed', { url }));
    }
  };
}
