import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../../lib/errorMessages';
import { formatAmount } from '../../../lib/money';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button, ButtonLink } from '../../../ui/Button';
import { AlertIcon, CheckIcon, InfoIcon } from '../../../ui/icons';
import { Spinner } from '../../../ui/Spinner';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { safeInternalPath } from '../../auth/safePath';
import { useHideAmounts } from '../hooks/useHideAmounts';
import { usePollTopUp, type TopUpPollState } from '../hooks/usePollTopUp';
import { cx } from '../../../lib/cx';
import styles from './PaymentSuccessPage.module.css';

type Tone = 'progress' | 'success' | 'error' | 'info';

/**
 * /wallet/payment-success?payment=<id>: where the payment provider sends the browser back. Follows
 * the top-up until the provider's answer is final and says what happened.
 */
export function PaymentSuccessPage() {
  const { t } = useTranslation();
  usePageMeta(t('wallet.paymentSuccess.metaTitle'));
  const [params] = useSearchParams();
  const paymentId = params.get('payment')?.trim() || null;
  const { state, checkAgain } = usePollTopUp(paymentId);

  return (
    <div className={styles.page}>
      {paymentId ? (
        <PaymentResult state={state} onCheckAgain={checkAgain} />
      ) : (
        <ResultCard
          tone="error"
          title={t('wallet.paymentSuccess.missingTitle')}
          actions={<WalletLink primary />}
        >
          <p>{t('wallet.paymentSuccess.missingText')}</p>
        </ResultCard>
      )}
    </div>
  );
}

function PaymentResult({
  state,
  onCheckAgain,
}: {
  state: TopUpPollState;
  onCheckAgain: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { user } = useGetCurrentUser();
  const [hidden] = useHideAmounts(user?.hideAvailableAmount);
  const language = i18n.language;

  switch (state.phase) {
    case 'checking':
      return (
        <ResultCard tone="progress" title={t('wallet.paymentSuccess.checkingTitle')}>
          <p>
            {state.topUp
              ? t('wallet.paymentSuccess.checkingAmount', {
                  amount: formatAmount(state.topUp.amount, language),
                })
              : t('wallet.paymentSuccess.checkingText')}
          </p>
        </ResultCard>
      );
    case 'waiting':
      return (
        <ResultCard
          tone="info"
          title={t('wallet.paymentSuccess.waitingTitle')}
          actions={
            <>
              <Button variant="primary" onClick={onCheckAgain}>
                {t('wallet.paymentSuccess.checkAgain')}
              </Button>
              <WalletLink />
            </>
          }
        >
          <p>{t('wallet.paymentSuccess.waitingText')}</p>
        </ResultCard>
      );
    case 'failed':
      return (
        <ResultCard
          tone="error"
          title={t('wallet.paymentSuccess.loadFailedTitle')}
          actions={
            <>
              <Button variant="primary" onClick={onCheckAgain}>
                {t('wallet.paymentSuccess.checkAgain')}
              </Button>
              <WalletLink />
            </>
          }
        >
          <p>
            {state.failure
              ? errorText(t, state.failure.identifier, state.failure.message)
              : t('toast.networkError')}
          </p>
        </ResultCard>
      );
    case 'settled': {
      const amount = formatAmount(state.topUp.amount, language);
      if (state.status === 'paid') {
        const origin = safeInternalPath(state.topUp.originUrl);
        return (
          <ResultCard
            tone="success"
            title={t('wallet.paymentSuccess.paidTitle')}
            actions={
              origin && origin !== '/wallet' ? (
                <>
                  <ButtonLink to={origin} variant="action-gradient">
                    {t('wallet.paymentSuccess.continue')}
                  </ButtonLink>
                  <WalletLink />
                </>
              ) : (
                <WalletLink primary />
              )
            }
          >
            <p>{t('wallet.paymentSuccess.paidText', { amount })}</p>
            {state.wallet && !hidden ? (
              <p className={styles.balance}>
                <span className={styles.balanceLabel}>{t('wallet.paymentSuccess.newBalance')}</span>
                <span className={styles.balanceAmount}>
                  {formatAmount(state.wallet.availableAmount, language)}
                </span>
              </p>
            ) : null}
          </ResultCard>
        );
      }
      return (
        <ResultCard
          tone="error"
          title={t(`wallet.paymentSuccess.${state.status}Title`)}
          actions={
            <ButtonLink to="/wallet" variant="primary">
              {t('wallet.paymentSuccess.retry')}
            </ButtonLink>
          }
        >
          <p>{t(`wallet.paymentSuccess.${state.status}Text`, { amount })}</p>
        </ResultCard>
      );
    }
  }
}

function WalletLink({ primary = false }: { primary?: boolean }) {
  const { t } = useTranslation();
  return (
    <ButtonLink to="/wallet" variant={primary ? 'primary' : 'secondary'}>
      {t('wallet.paymentSuccess.toWallet')}
    </ButtonLink>
  );
}

/** One outcome: an icon, a heading that takes focus when the outcome changes, text and actions. */
function ResultCard({
  tone,
  title,
  children,
  actions,
}: {
  tone: Tone;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    // The first state is announced with the page; later ones move focus so they are read out.
    if (first.current) {
      first.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [title]);

  return (
    <section className={cx(styles.card, styles[tone])} aria-busy={tone === 'progress'}>
      <div className={styles.icon} aria-hidden="true">
        {tone === 'progress' ? (
          <Spinner size="lg" />
        ) : tone === 'success' ? (
          <CheckIcon size={32} strokeWidth={3} />
        ) : tone === 'info' ? (
          <InfoIcon size={32} />
        ) : (
          <AlertIcon size={32} />
        )}
      </div>
      <h1 ref={headingRef} className={styles.title} tabIndex={-1}>
        {title}
      </h1>
      <div className={styles.text}>{children}</div>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </section>
  );
}
