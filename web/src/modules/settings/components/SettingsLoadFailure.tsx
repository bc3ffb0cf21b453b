import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errorMessages';
import type { ResponseStatus } from '../../../lib/graphql';
import { Button } from '../../../ui/Button';
import { AlertIcon } from '../../../ui/icons';
import layout from '../../../ui/layout.module.css';

export function SettingsLoadFailure({
  failure,
  onRetry,
}: {
  failure: ResponseStatus | null;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className={layout.alert} role="alert">
      <AlertIcon size={20} />
      <div className={layout.alertBody}>
        <p>{t('settings.loadFailed')}</p>
        {failure ? <p>{errorText(t, failure.identifier, failure.message)}</p> : null}
        <div>
          <Button variant="secondary" size="sm" onClick={onRetry}>
            {t('wallet.retry')}
          </Button>
        </div>
      </div>
    </div>
  );
}
