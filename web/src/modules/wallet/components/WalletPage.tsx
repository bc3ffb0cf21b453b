import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errorMessages';
import { cx } from '../../../lib/cx';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button } from '../../../ui/Button';
import { AlertIcon, EyeIcon, EyeOffIcon, WalletIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { useGetWallet } from '../hooks/useGetWallet';
import { useHideAmounts } from '../hooks/useHideAmounts';
import { Amount } from './Amount';
import styles from './WalletPage.module.css';

export function WalletPage() {
  const { t } = useTranslation();
  usePageMeta(t('wallet.title'));
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
          <BalanceCard
            label={t('wallet.pending')}
            hint={t('wallet.pendingHint')}
            cents={wallet.freezeAmount}
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
          {[0, 1, 2].map((index) => (
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

      <PagePlaceholder
        as="h2"
        icon={<WalletIcon size={28} />}
        title={t('wallet.comingSoonTitle')}
        description={t('wallet.comingSoonText')}
      />
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
