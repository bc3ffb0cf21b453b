import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../../lib/errorMessages';
import { maskIban } from '../../../lib/iban';
import { formatAmount, formatEuroInput } from '../../../lib/money';
import {
  describeFailure,
  failureIdentifier,
  type MutationOutcome,
} from '../../../lib/mutationOutcome';
import { Button, ButtonLink } from '../../../ui/Button';
import { Input } from '../../../ui/Input';
import { Modal } from '../../../ui/Modal';
import { Notice } from '../../../ui/Notice';
import { Spinner } from '../../../ui/Spinner';
import { useToasts } from '../../../ui/toast/Toasts';
import { checkAmount } from '../amountInput';
import type { WalletOverview } from '../graphql/Wallet';
import { useGetProfilePaymentInformation } from '../hooks/useGetProfilePaymentInformation';
import { useRequestPayout } from '../hooks/useRequestPayout';
import { missingPaymentFields } from '../paymentProfile';
import styles from './MoneyForms.module.css';

const EDIT_PAYMENTS_PATH = '/settings/edit-payments';

/** How much can still be paid out now: the available balance, within this month's limit. */
export function payableAmount(wallet: WalletOverview): number {
  const monthly = Math.max(
    0,
    wallet.limits.monthlyWithdrawalLimit - wallet.limits.withdrawnThisMonth,
  );
  return Math.max(0, Math.min(wallet.availableAmount, monthly));
}

type Refusal = { text: string; detailsMissing: boolean };

/**
 * A payout to the bank account of the payment profile (shown masked, NL91 •••• 4300). The amount
 * is typed in euros and sent as integer cents after a confirmation; the server's refusals
 * (details missing, below the minimum, monthly limit, too little money) are explained in the form.
 */
export function PayoutForm({
  wallet,
  hidden,
  labelledBy,
}: {
  wallet: WalletOverview;
  hidden: boolean;
  labelledBy?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const toasts = useToasts();
  const accountId = useId();
  const profile = useGetProfilePaymentInformation();
  const { requestPayout, loading } = useRequestPayout();
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [requested, setRequested] = useState<number | null>(null);

  const { limits } = wallet;
  const monthlyLeft = Math.max(0, limits.monthlyWithdrawalLimit - limits.withdrawnThisMonth);
  const max = payableAmount(wallet);
  const check = checkAmount(text, t, language, {
    min: limits.minimumPayout,
    max,
    tooLow: (amount) => t('wallet.payout.tooLow', { min: amount }),
    tooHigh: (amount) =>
      max === monthlyLeft && monthlyLeft < wallet.availableAmount
        ? t('wallet.payout.tooHighMonthly', { max: amount })
        : t('wallet.payout.overBalance'),
  });
  const shownError = touched ? check.error : null;

  const details = profile.paymentProfile;
  const detailsMissing = details ? missingPaymentFields(details).length > 0 : false;
  const account = details?.paymentAccountNumber ? maskIban(details.paymentAccountNumber) : null;
  const nothingToPayOut = wallet.availableAmount < Math.max(limits.minimumPayout, 1);
  const monthlyLimitReached = monthlyLeft < Math.max(limits.minimumPayout, 1);
  const blocked = detailsMissing || nothingToPayOut || monthlyLimitReached;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (blocked || check.error || check.cents === null || loading) return;
    setRefusal(null);
    setRequested(null);
    setConfirming(check.cents);
  };

  const confirm = async () => {
    if (confirming === null) return;
    const cents = confirming;
    const outcome = await requestPayout(cents);
    setConfirming(null);
    if (outcome.ok) {
      setRequested(outcome.result.payoutRequest?.amount ?? cents);
      setText('');
      setTouched(false);
      toasts.success(t('wallet.payout.requested', { amount: formatAmount(cents, language) }));
      return;
    }
    setRefusal(payoutRefusal(outcome));
  };

  const payoutRefusal = (outcome: Extract<MutationOutcome<unknown>, { ok: false }>): Refusal => {
    const identifier = failureIdentifier(outcome);
    const text =
      identifier === 'insufficient_funds'
        ? t('wallet.payout.insufficientFunds')
        : identifier === 'payout_request_amount_too_low'
          ? t('wallet.payout.tooLow', { min: formatAmount(limits.minimumPayout, language) })
          : identifier
            ? errorText(t, identifier, outcome.status?.message)
            : (describeFailure(t, outcome) ?? t('errors.payout_request_failed'));
    return { text, detailsMissing: identifier === 'payout_request_details_missing' };
  };

  return (
    <>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={labelledBy}>
        <div className={styles.account} id={accountId}>
          <span className={styles.accountLabel}>{t('wallet.payout.to')}</span>
          {profile.loading ? (
            <span role="status">
              <Spinner size="sm" />
              <span className="visually-hidden">{t('ui.loading')}</span>
            </span>
          ) : account && !detailsMissing ? (
            <>
              <span className={styles.accountNumber}>{account}</span>
              {details?.paymentName ? (
                <span className={styles.accountName}>{details.paymentName}</span>
              ) : null}
              <Link className={styles.accountChange} to={EDIT_PAYMENTS_PATH}>
                {t('wallet.payout.changeAccount')}
              </Link>
            </>
          ) : details ? (
            <span className={styles.accountMissing}>{t('wallet.payout.noAccount')}</span>
          ) : (
            <span className={styles.accountMissing}>
              {t('wallet.payout.accountLoadFailed')}{' '}
              <button type="button" className={styles.linkButton} onClick={profile.refetch}>
                {t('wallet.retry')}
              </button>
            </span>
          )}
        </div>

        {detailsMissing ? (
          <Notice
            tone="info"
            title={t('wallet.payout.detailsMissingTitle')}
            actions={
              <ButtonLink to={EDIT_PAYMENTS_PATH} variant="primary" size="sm">
                {t('wallet.payout.addDetails')}
              </ButtonLink>
            }
          >
            <p>{t('wallet.payout.detailsMissingText')}</p>
          </Notice>
        ) : nothingToPayOut ? (
          <p className={styles.subtle}>
            {t('wallet.payout.nothingAvailable', {
              min: formatAmount(limits.minimumPayout, language),
            })}
          </p>
        ) : monthlyLimitReached ? (
          <Notice tone="warning" title={t('wallet.payout.limitReachedTitle')}>
            <p>{errorText(t, 'limit_exceeded_this_month')}</p>
          </Notice>
        ) : null}

        <Input
          className={styles.amount}
          label={t('wallet.payout.amount')}
          name="payoutAmount"
          inputMode="decimal"
          autoComplete="off"
          placeholder={formatEuroInput(Math.max(limits.minimumPayout, 100), language)}
          value={text}
          disabled={blocked || loading}
          onChange={(event) => {
            setText(event.target.value);
            setRefusal(null);
            setRequested(null);
          }}
          onBlur={() => setTouched(text.trim() !== '' || touched)}
          endAdornment={<span className={styles.currency}>EUR</span>}
          status={shownError ? 'error' : 'hint'}
          message={
            shownError ??
            t('wallet.payout.limitsHint', {
              min: formatAmount(limits.minimumPayout, language),
              max: formatAmount(monthlyLeft, language),
            })
          }
        />
        {!blocked && max > 0 ? (
          <div className={styles.fillRow}>
            <button
              type="button"
              className={styles.linkButton}
              onClick={() => {
                setText(formatEuroInput(max, language));
                setTouched(true);
                setRefusal(null);
              }}
            >
              {hidden
                ? t('wallet.payout.everythingHidden')
                : t('wallet.payout.everything', { amount: formatAmount(max, language) })}
            </button>
          </div>
        ) : null}

        {refusal ? (
          <Notice
            tone="error"
            title={t('wallet.payout.failedTitle')}
            actions={
              refusal.detailsMissing ? (
                <ButtonLink to={EDIT_PAYMENTS_PATH} variant="secondary" size="sm">
                  {t('wallet.payout.addDetails')}
                </ButtonLink>
              ) : undefined
            }
          >
            <p>{refusal.text}</p>
          </Notice>
        ) : null}
        {requested !== null ? (
          <Notice
            tone="success"
            title={t('wallet.payout.requested', { amount: formatAmount(requested, language) })}
          >
            <p>{t('wallet.payout.requestedText')}</p>
          </Notice>
        ) : null}

        <div className={styles.actions}>
          <Button
            type="submit"
            variant="primary"
            block
            disabled={blocked}
            loading={loading}
            aria-describedby={accountId}
          >
            {t('wallet.payout.submit')}
          </Button>
        </div>
      </form>

      <Modal
        open={confirming !== null}
        onClose={() => (loading ? undefined : setConfirming(null))}
        persistent={loading}
        size="sm"
        title={t('wallet.payout.confirmTitle')}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(null)} disabled={loading}>
              {t('wallet.payout.cancel')}
            </Button>
            <Button
              variant="primary"
              onClick={() => void confirm()}
              loading={loading}
              data-autofocus
            >
              {t('wallet.payout.confirm', {
                amount: formatAmount(confirming ?? 0, language),
              })}
            </Button>
          </>
        }
      >
        <p>
          {t('wallet.payout.confirmText', {
            amount: formatAmount(confirming ?? 0, language),
            account: account ?? '',
          })}
        </p>
      </Modal>
    </>
  );
}
