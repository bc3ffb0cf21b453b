import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../../../../ui/Notice';
import { SelectField } from '../../../../ui/SelectField';
import layout from '../../../../ui/layout.module.css';
import type { PayoutRequest } from '../../graphql/PayoutRequests';
import { useGetPayoutRequests, type PayoutStatusFilter } from '../../hooks/useGetPayoutRequests';
import { PagedListView } from '../PagedListView';
import styles from '../Moderator.module.css';
import { CancelPayoutDialog } from './CancelPayoutDialog';
import { ExportForm } from './ExportForm';
import { MarkPaidDialog } from './MarkPaidDialog';
import type { Message } from './payoutMessage';
import { PayoutTable } from './PayoutTable';
import { ReleaseDialog } from './ReleaseDialog';

const FILTERS: readonly PayoutStatusFilter[] = ['open', 'exported', 'done', 'cancelled', 'all'];

/**
 * Payouts: export the open ones as a SEPA file for the bank, then mark each exported one as
 * paid; an open or exported one the bank returned is cancelled (its money goes back).
 */
export function PayoutsPanel() {
  const { t } = useTranslation();
  const titleId = useId();
  const [filter, setFilter] = useState<PayoutStatusFilter>('open');
  const [page, setPage] = useState(1);
  const list = useGetPayoutRequests(page, filter);
  const [message, setMessage] = useState<Message | null>(null);
  const [confirming, setConfirming] = useState<PayoutRequest | null>(null);
  const [cancelling, setCancelling] = useState<PayoutRequest | null>(null);
  const [releasing, setReleasing] = useState<PayoutRequest | null>(null);
  const finish = (result: Message) => {
    setConfirming(null);
    setCancelling(null);
    setReleasing(null);
    setMessage(result);
    void list.refetch();
  };

  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h2 id={titleId} className={styles.sectionTitle}>
          {t('moderator.payouts.title')}
        </h2>
        <p className={styles.sectionText}>{t('moderator.payouts.text')}</p>
      </div>

      <ExportForm onExported={() => void list.refetch()} />

      <div className={styles.listHeader}>
        <SelectField
          className={styles.filter}
          label={t('moderator.payouts.filter')}
          name="status"
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value as PayoutStatusFilter);
            setPage(1);
            setMessage(null);
          }}
        >
          {FILTERS.map((value) => (
            <option key={value} value={value}>
              {t(`moderator.payouts.filters.${value}`)}
            </option>
          ))}
        </SelectField>
        {list.pagination ? (
          <p className={styles.count} aria-live="polite">
            {t('moderator.payouts.count', { count: list.pagination.totalCount })}
          </p>
        ) : null}
      </div>

      {message ? (
        <Notice tone={message.tone} title={message.title}>
          <p>{message.text}</p>
          {message.detail ? <p>{message.detail}</p> : null}
        </Notice>
      ) : null}

      <PagedListView
        list={list}
        page={page}
        onPage={setPage}
        empty={
          <p className={styles.empty}>
            {filter === 'open' ? t('moderator.payouts.emptyOpen') : t('moderator.payouts.empty')}
          </p>
        }
        loadFailedTitle={t('moderator.payouts.loadFailed')}
        pagesLabel={t('moderator.payouts.pages')}
      >
        {(items) => (
          <PayoutTable
            items={items}
            busy={list.fetching}
            onMarkPaid={(payout) => {
              setMessage(null);
              setConfirming(payout);
            }}
            onCancel={(payout) => {
              setMessage(null);
              setCancelling(payout);
            }}
            onRelease={(payout) => {
              setMessage(null);
              setReleasing(payout);
            }}
          />
        )}
      </PagedListView>

      <MarkPaidDialog payout={confirming} onClose={() => setConfirming(null)} onDone={finish} />
      <ReleaseDialog payout={releasing} onClose={() => setReleasing(null)} onDone={finish} />
      {cancelling ? (
        <CancelPayoutDialog
          key={cancelling.id}
          payout={cancelling}
          onClose={() => setCancelling(null)}
          onDone={finish}
        />
      ) : null}
    </section>
  );
}
