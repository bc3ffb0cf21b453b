import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errorMessages';
import type { ResponseStatus } from '../../../lib/graphql';
import { Button } from '../../../ui/Button';
import { Notice } from '../../../ui/Notice';

/** A console list that could not be loaded: why, and a retry. Shared by every staff tab. */
export function LoadFailedNotice({
  title,
  failure,
  onRetry,
}: {
  title: string;
  failure: ResponseStatus | null;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Notice
      tone="error"
      title={title}
      actions={
        <Button variant="secondary" size="sm" onClick={onRetry}>
          {t('wallet.retry')}
        </Button>
      }
    >
      {failure ? <p>{errorText(t, failure.identifier, failure.message)}</p> : null}
    </Notice>
  );
}
