import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { cx } from '../../../lib/cx';
import { errorText } from '../../../lib/errorMessages';
import { formatAmount } from '../../../lib/money';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button, ButtonLink } from '../../../ui/Button';
import { ArrowLeftIcon } from '../../../ui/icons';
import { Notice } from '../../../ui/Notice';
import { PageHeader } from '../../../ui/PageHeader';
import { PageLoader } from '../../../ui/PageLoader';
import layout from '../../../ui/layout.module.css';
import { safeInternalPath } from '../../auth/safePath';
import { useGetWallet } from '../hooks/useGetWallet';
import { TopUpForm } from './TopUpForm';
import styles from './WalletPage.module.css';

/** A suggested amount from the link, in integer cents (`?amount=1250`). */
function suggestedCents(value: string | null): number | null {
  return value && /^\d{1,9}$/.test(value) ? Number(value) : null;
}

/**
 * /wallet/top-up: the top-up form on its own, for links from elsewhere ("your balance is too low,
 * top up"): `?amount=<cents>` fills in the amount, `?originUrl=/path` is where to continue after
 * paying (else this page).
 */
export function TopUpPage() {
  const { t, i18n } = useTranslation();
  usePageMeta(t('wallet.topUpPage.title'));
  const titleId = useId();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const originUrl = safeInternalPath(params.get('originUrl')) ?? pathname;
  const { wallet, failure, loading, refetch } = useGetWallet();

  return (
    <div className={styles.page}>
      <PageHeader
        title={t('wallet.topUpPage.title')}
        subtitle={t('wallet.topUpPage.subtitle')}
        actions={
          <ButtonLink
            to="/wallet"
            variant="secondary"
            size="sm"
            iconStart={<ArrowLeftIcon size={16} />}
          >
            {t('wallet.topUpPage.back')}
          </ButtonLink>
        }
      />
      {wallet ? (
        <section className={cx(layout.panel, styles.narrowPanel)} aria-labelledby={titleId}>
          <div className={layout.panelHeader}>
            <h2 id={titleId} className={layout.panelTitle}>
              {t('wallet.topUp.title')}
            </h2>
            <p className={layout.panelText}>
              {t('wallet.topUpPage.balance', {
                amount: formatAmount(wallet.availableAmount, i18n.language),
              })}
            </p>
          </div>
          <TopUpForm
            limits={wallet.limits}
            originUrl={originUrl}
            initialCents={suggestedCents(params.get('amount'))}
            labelledBy={titleId}
          />
        </section>
      ) : loading ? (
        <PageLoader />
      ) : (
        <Notice
          tone="error"
          title={t('wallet.loadFailed')}
          actions={
            <Button variant="secondary" size="sm" onClick={refetch}>
              {t('wallet.retry')}
            </Button>
          }
        >
          {failure ? <p>{errorText(t, failure.identifier, failure.message)}</p> : null}
        </Notice>
      )}
    </div>
  );
}
