import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../../lib/errorMessages';
import { cx } from '../../../lib/cx';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button } from '../../../ui/Button';
import { AlertIcon, EyeIcon, EyeOffIcon } from '../../../ui/icons';
import layout from '../../../ui/layout.module.css';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { useGetWallet } from '../hooks/useGetWallet';
import { useHideAmounts } from '../hooks/useHideAmounts';
import { Amount } from './Amount';
import { PayoutForm } from './PayoutForm';
import { TopUpForm } from './TopUpForm';
import { TransactionHistory } from './TransactionHistory';
import styles from './WalletPage.module.css';

/** /wallet: balances, top-up, payout and the transaction history. */
export function WalletPage() {
  const { t } = useTranslation();
  usePageMeta(t('wallet.title'));
  const { pathname } = useLocation();
  const topUpTitleId = useId();
  const payoutTitleId = useId();
  const { user } = useGetCurrentUser();
  const { wallet, failure, requestFailed, loading, refetch } = useGetWallet();
  const [hidden, toggleHidden] = useHideAmounts(user?.hideAvailableAmount);

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div>
          <h1 className={styles.title}>{t('wallet.title')}</h1>
          <p className={styles.subtitle}>{t('wallet.subtitle')}</p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          onClick={toggleHidden}
          aria-pressed={hidden}
          iconStart={hidden ? <EyeIcon size={18} /> : <EyeOffIcon size={18} />}
        >
          {hidden ? t('wallet.showAmounts') : t('wallet.hideAmounts')}
        </Button>
      </header>

      {wallet ? (
        <div className={styles.grid}>
          <BalanceCard
            featured
            label={t('wallet.available')}
            hint={t('wallet.availableHint')}
            cents={wallet.availableAmount}
            hidden={hidden}
          />
          {/* The reserved money is the open payouts and what running challenges hold: each
              shown once, so that the cards add up to the total (issue 22, point 5). */}
          <BalanceCard
            label={t('wallet.heldForChallenges')}
            hint={t('wallet.balances.heldHint')}
            cents={Math.max(0, wallet.freezeAmount - wallet.openPayoutAmount)}
            hidden={hidden}
          />
          <BalanceCard
            label={t('wallet.balances.openPayout')}
            hint={t('wallet.balances.openPayoutHint')}
            cents={wallet.openPayoutAmount}
            hidden={hidden}
          />
          <BalanceCard
            label={t('wallet.total')}
            hint={t('wallet.totalHint')}
            cents={wallet.totalAmount}
            hidden={hidden}
          />
        </div>
      ) : loading ? (
        <div className={styles.grid} role="status" aria-label={t('ui.loading')}>
          {[0, 1, 2, 3].map((index) => (
            <div
              key={index}
              className={cx(styles.card, styles.skeleton, index === 0 && styles.featured)}
            />
          ))}
        </div>
      ) : failure || requestFailed ? (
        <div className={styles.error} role="alert">
          <AlertIcon size={22} />
          <div className={styles.errorText}>
            <p className={styles.errorTitle}>{t('wallet.loadFailed')}</p>
            {failure ? <p>{errorText(t, failure.identifier, failure.message)}</p> : null}
          </div>
          <Button variant="secondary" size="sm" onClick={refetch}>
            {t('wallet.retry')}
          </Button>
        </div>
      ) : null}

      {wallet ? (
        <div className={styles.panels}>
          <section className={layout.panel} aria-labelledby={topUpTitleId}>
            <div className={layout.panelHeader}>
              <h2 id={topUpTitleId} className={layout.panelTitle}>
                {t('wallet.topUp.title')}
              </h2>
              <p className={layout.panelText}>{t('wallet.topUp.text')}</p>
            </div>
            <TopUpForm limits={wallet.limits} originUrl={pathname} labelledBy={topUpTitleId} />
          </section>
          <section className={layout.panel} aria-labelledby={payoutTitleId}>
            <div className={layout.panelHeader}>
              <h2 id={payoutTitleId} className={layout.panelTitle}>
                {t('wallet.payout.title')}
              </h2>
              <p className={layout.panelText}>{t('wallet.payout.text')}</p>
            </div>
            <PayoutForm wallet={wallet} hidden={hidden} labelledBy={payoutTitleId} />
          </section>
        </div>
      ) : null}

      <TransactionHistory hidden={hidden} />
    </div>
  );
}

function BalanceCard({
  label,
  hint,
  cents,
  hidden,
  featured = false,
}: {
  label: string;
  hint: string;
  cents: number;
  hidden: boolean;
  featured?: boolean;
}) {
  return (
    <section className={cx(styles.card, featured && styles.featured)} aria-label={label}>
      <h2 className={styles.cardLabel}>{label}</h2>
      <Amount className={styles.amount} cents={cents} hidden={hidden} />
      <p className={styles.hint}>{hint}</p>
    </section>
  );
}
