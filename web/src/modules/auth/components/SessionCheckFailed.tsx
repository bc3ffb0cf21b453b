import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button } from '../../../ui/Button';
import { AlertIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';

/**
 * Shown in place of a logged-in-only page when the session check failed (a 429 or 5xx): the
 * person may well be logged in, so this asks to try again rather than to log in (issue 22).
 */
export function SessionCheckFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  usePageMeta(t('auth.sessionCheck.title'));
  return (
    <PagePlaceholder
      icon={<AlertIcon size={28} />}
      title={t('auth.sessionCheck.title')}
      description={t('auth.sessionCheck.description')}
    >
      <Button variant="action-gradient" onClick={onRetry}>
        {t('auth.sessionCheck.retry')}
      </Button>
    </PagePlaceholder>
  );
}
