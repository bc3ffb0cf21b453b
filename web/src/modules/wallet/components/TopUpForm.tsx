import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errorMessages';
import { externalNavigation, isHttpUrl } from '../../../lib/externalNavigation';
import { formatAmount, formatEuroInput } from '../../../lib/money';
import { describeFailure } from '../../../lib/mutationOutcome';
import { Button } from '../../../ui/Button';
import { Input } from '../../../ui/Input';
import { Notice } from '../../../ui/Notice';
import { checkAmount } from '../amountInput';
import type { WalletLimits } from '../graphql/Wallet';
import { useInitializePayment } from '../hooks/useInitializePayment';
import styles from './MoneyForms.module.css';

/** Suggested amounts in cents; only those within the wallet's limits are offered. */
const QUICK_AMOUNTS = [1000, 2500, 5000, 10000];

/** How much can still be deposited this calendar month, in cents. */
export function remainingDeposit(limits: WalletLimits): number {
  return Math.max(0, limits.monthlyDepositLimit - limits.depositedThisMonth);
}

/**
 * A card top-up: the amount in euros (sent as integer cents), then off to the payment provider's
 * checkout. The provider sends the browser back to /wallet/payment-success, which follows the
 * payment; `originUrl` is where that page offers to continue.
 */
export function TopUpForm({
  limits,
  originUrl,
  initialCents,
  labelledBy,
}: {
  limits: WalletLimits;
  originUrl: string;
  initialCents?: number | null;
  labelledBy?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { initializePayment, loading } = useInitializePayment();
  const [text, setText] = useState(() =>
    initialCents ? formatEuroInput(initialCents, language) : '',
  );
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);

  const min = limits.minimumTopUp;
  const max = remainingDeposit(limits);
  const check = checkAmount(text, t, language, {
    min,
    max,
    tooLow: (amount) => t('wallet.topUp.tooLow', { min: amount }),
    tooHigh: (amount) => t('wallet.topUp.tooHigh', { max: amount }),
  });
  const shownError = touched ? check.error : null;
  const quickAmounts = QUICK_AMOUNTS.filter((cents) => cents >= min && cents <= max);

  if (max < Math.max(min, 1)) {
    return (
      <Notice tone="warning" title={t('wallet.topUp.limitReachedTitle')}>
        <p>{errorText(t, 'limit_exceeded_this_month')}</p>
      </Notice>
    );
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (check.error || check.cents === null || loading || redirecting) return;
    setFailure(null);
    const outcome = await initializePayment({ amount: check.cents, originUrl });
    if (!outcome.ok) {
      setFailure(describeFailure(t, outcome));
      return;
    }
    const url = outcome.result.payment_url;
    if (!isHttpUrl(url)) {
      setFailure(t('wallet.topUp.linkFailed'));
      return;
    }
    setRedirecting(true);
    externalNavigation.assign(url);
  };

  const busy = loading || redirecting;
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={labelledBy}>
      {quickAmounts.length > 0 ? (
        <div className={styles.quick} role="group" aria-label={t('wallet.topUp.quickAmounts')}>
          {quickAmounts.map((cents) => {
            const value = formatEuroInput(cents, language);
            return (
              <Button
                key={cents}
                variant="secondary"
                size="sm"
                aria-pressed={check.cents === cents}
                disabled={busy}
                onClick={() => {
                  setText(value);
                  setTouched(true);
                }}
              >
                {formatAmount(cents, language)}
              </Button>
            );
          })}
        </div>
      ) : null}
      <Input
        className={styles.amount}
        label={t('wallet.topUp.amount')}
        name="topUpAmount"
        inputMode="decimal"
        autoComplete="off"
        placeholder={formatEuroInput(2500, language)}
        value={text}
        disabled={busy}
        onChange={(event) => {
          setText(event.target.value);
          setFailure(null);
        }}
        onBlur={() => setTouched(text.trim() !== '' || touched)}
        endAdornment={<span className={styles.currency}>EUR</span>}
        status={shownError ? 'error' : 'hint'}
        message={
          shownError ??
          t('wallet.topUp.limitsHint', {
            min: formatAmount(min, language),
            max: formatAmount(max, language),
          })
        }
      />
      {failure ? (
        <Notice tone="error" title={t('wallet.topUp.failedTitle')}>
          <p>{failure}</p>
        </Notice>
      ) : null}
      {redirecting ? (
        <p className={styles.subtle} role="status">
          {t('wallet.topUp.redirecting')}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" variant="action-gradient" loading={busy} block>
          {check.cents !== null && !check.error
            ? t('wallet.topUp.submitAmount', { amount: formatAmount(check.cents, language) })
            : t('wallet.topUp.submit')}
        </Button>
      </div>
      <p className={styles.fineprint}>{t('wallet.topUp.secure')}</p>
    </form>
  );
}
