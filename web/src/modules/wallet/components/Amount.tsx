import { useTranslation } from 'react-i18next';
import { formatAmount, formatEuros } from '../../../lib/money';

/** Cents with an explicit sign ("+€25.50", "€ -25,50"), for movements in and out of the wallet. */
export function formatSignedAmount(cents: number, language: string | undefined): string {
  return formatEuros(cents, language, true);
}

/** An amount of euro cents in the UI language, or a mask when hidden. */
export function Amount({
  cents,
  hidden = false,
  signed = false,
  className,
}: {
  cents: number;
  hidden?: boolean;
  /** Show + or - (a movement rather than a balance). */
  signed?: boolean;
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
  return (
    <span className={className}>
      {signed ? formatSignedAmount(cents, i18n.language) : formatAmount(cents, i18n.language)}
    </span>
  );
}
