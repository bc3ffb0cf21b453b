import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../../lib/errorMessages';
import { formatDate } from '../../../lib/dates';
import { cx } from '../../../lib/cx';
import { Button } from '../../../ui/Button';
import { Notice } from '../../../ui/Notice';
import { Pager } from '../../../ui/Pager';
import { Spinner } from '../../../ui/Spinner';
import layout from '../../../ui/layout.module.css';
import type { WalletTransaction } from '../graphql/WalletTransactions';
import { useGetWalletTransactions } from '../hooks/useGetWalletTransactions';
import { headlineChange, transactionMeaning, type TransactionMeaning } from '../transactionMeaning';
import { Amount } from './Amount';
import styles from './TransactionHistory.module.css';

/** Meanings that name their challenge, with a link to it, when the movement has one. */
const WITH_CHALLENGE = {
  rewardHeld: 'wallet.history.forChallenge.rewardHeld',
  rewardPaid: 'wallet.history.forChallenge.rewardPaid',
  rewardReceived: 'wallet.history.forChallenge.rewardReceived',
  rewardReturned: 'wallet.history.forChallenge.rewardReturned',
} as const satisfies Partial<Record<TransactionMeaning, string>>;

function hasChallengeText(meaning: TransactionMeaning): meaning is keyof typeof WITH_CHALLENGE {
  return meaning in WITH_CHALLENGE;
}

/** The user's movements, newest first, a page at a time; amounts follow the hide toggle. */
export function TransactionHistory({ hidden }: { hidden: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [page, setPage] = useState(1);
  const history = useGetWalletTransactions(page);
  const totalPages = history.pagination?.totalPages ?? 1;

  return (
    <section className={layout.panel} aria-labelledby={titleId}>
      <div className={styles.header}>
        <h2 id={titleId} className={layout.panelTitle}>
          {t('wallet.history.title')}
        </h2>
        {history.pagination && history.pagination.totalCount > 0 ? (
          <span className={styles.count}>
            {t('wallet.history.count', { count: history.pagination.totalCount })}
          </span>
        ) : null}
      </div>
      {history.items ? (
        history.items.length === 0 ? (
          <div className={styles.empty}>
            <p className={styles.emptyTitle}>{t('wallet.history.empty')}</p>
            <p>{t('wallet.history.emptyText')}</p>
          </div>
        ) : (
          <ol className={styles.list} aria-busy={history.fetching}>
            {history.items.map((transaction) => (
              <TransactionRow key={transaction.id} transaction={transaction} hidden={hidden} />
            ))}
          </ol>
        )
      ) : history.loading ? (
        <div className={styles.loading} role="status">
          <Spinner size="md" />
          <span className="visually-hidden">{t('ui.loading')}</span>
        </div>
      ) : (
        <Notice
          tone="error"
          title={t('wallet.history.loadFailed')}
          actions={
            <Button variant="secondary" size="sm" onClick={history.refetch}>
              {t('wallet.retry')}
            </Button>
          }
        >
          {history.failure ? (
            <p>{errorText(t, history.failure.identifier, history.failure.message)}</p>
          ) : null}
        </Notice>
      )}
      <Pager
        page={history.pagination?.currentPage ?? page}
        totalPages={totalPages}
        onPage={setPage}
        label={t('wallet.history.pages')}
        disabled={history.fetching}
      />
    </section>
  );
}

function TransactionRow({
  transaction,
  hidden,
}: {
  transaction: WalletTransaction;
  hidden: boolean;
}) {
  const { t, i18n } = useTranslation();
  const meaning = transactionMeaning(transaction);
  const headline = headlineChange(transaction);
  const challenge = transaction.challenge;
  const date = new Date(transaction.createdAt);
  // Money set aside or given back inside the wallet: no money in or out, so no signed amount.
  const moved = headline === 0 ? transaction.frozenChange : 0;
  const fromReserved = headline < 0 && transaction.availableChange === 0;

  return (
    <li className={styles.row}>
      <span
        className={cx(styles.dot, headline > 0 ? styles.in : headline < 0 ? styles.out : null)}
        aria-hidden="true"
      />
      <div className={styles.what}>
        <p className={styles.meaning}>
          {challenge && hasChallengeText(meaning) ? (
            <Trans
              i18nKey={WITH_CHALLENGE[meaning]}
              values={{ challenge: challenge.challengeName }}
              components={{
                a: <Link to={`/challenge/${encodeURIComponent(challenge.slug)}/detail`} />,
              }}
            />
          ) : (
            t(`wallet.history.kinds.${meaning}`)
          )}
        </p>
        {Number.isNaN(date.getTime()) ? null : (
          <time className={styles.date} dateTime={date.toISOString()}>
            {formatDate(date, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}
          </time>
        )}
      </div>
      <div className={styles.amounts}>
        {moved !== 0 ? (
          // Set aside or given back: one unsigned amount that says where it went.
          <span className={styles.pending}>
            {t(moved > 0 ? 'wallet.history.setAside' : 'wallet.history.backToAvailable')}{' '}
            <Amount cents={Math.abs(moved)} hidden={hidden} />
          </span>
        ) : (
          <Amount
            className={cx(styles.amount, headline > 0 && styles.positive)}
            cents={headline}
            hidden={hidden}
            signed
          />
        )}
        {fromReserved ? (
          <span className={styles.pending}>{t('wallet.history.paidFromReserved')}</span>
        ) : null}
      </div>
    </li>
  );
}
