import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../../lib/money';

/** An amount of euro cents in the UI language, or a mask when hidden. */
export function Amount({
  cents,
  hidden = false,
  className,
}: {
  cents: number;
  hidden?: boolean;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  if (hidden) {
    return (
      <span className={className}>
        <span aria-hidden="true">€ ••••</span>
        <span className="visually-hidden">{t('wallet.amountHidden')}</span>
      </span>
    );
  }
  return <span className={className}>{formatAmount(cents, i18n.language)}</span>;
}
