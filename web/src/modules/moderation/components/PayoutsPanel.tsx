import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName } from '../../../lib/countries';
import { formatDate } from '../../../lib/dates';
import { downloadTextFile } from '../../../lib/download';
import { errorText } from '../../../lib/errorMessages';
import { formatIban } from '../../../lib/iban';
import { formatAmount } from '../../../lib/money';
import {
  describeFailure,
  failureIdentifier,
  type MutationOutcome,
} from '../../../lib/mutationOutcome';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { Modal } from '../../../ui/Modal';
import { Notice, type NoticeTone } from '../../../ui/Notice';
import { SelectField } from '../../../ui/SelectField';
import layout from '../../../ui/layout.module.css';
import { useToasts } from '../../../ui/toast/Toasts';
import { SEPA_FORMATS, type SepaFormat } from '../graphql/ExportPayoutRequests';
import type { PayoutRequest } from '../graphql/PayoutRequests';
import { useCancelPayoutRequest } from '../hooks/useCancelPayoutRequest';
import { useExportPayoutRequests } from '../hooks/useExportPayoutRequests';
import { useGetPayoutRequests, type PayoutStatusFilter } from '../hooks/useGetPayoutRequests';
import { useReleasePayoutRequest } from '../hooks/useReleasePayoutRequest';
import { useSetPayoutRequestAsCompleted } from '../hooks/useSetPayoutRequestAsCompleted';
import { ColumnHeaders } from './ModeratorParts';
import { PagedListView } from './PagedListView';
import { REASON_MAX, ReasonDialog } from './ReasonDialog';
import styles from './Moderator.module.css';

const FILTERS: readonly PayoutStatusFilter[] = ['open', 'exported', 'done', 'cancelled', 'all'];
const STATUSES = ['open', 'exported', 'done', 'cancelled'] as const;

type Failed = Extract<MutationOutcome<unknown>, { ok: false }>;
type Message = { tone: NoticeTone; title?: string; text: string; detail?: string | null };

/** The server's own words when the translation alone would not say what went wrong. */
function serverDetail(outcome: Failed, shown: string | null): string | null {
  const message = outcome.status?.message?.trim();
  return message && message !== shown ? message : null;
}

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

function PayoutTable({
  items,
  busy,
  onMarkPaid,
  onCancel,
  onRelease,
}: {
  items: PayoutRequest[];
  busy: boolean;
  onMarkPaid: (payout: PayoutRequest) => void;
  onCancel: (payout: PayoutRequest) => void;
  onRelease: (payout: PayoutRequest) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const date = (value: string) =>
    formatDate(value, language, { dateStyle: 'medium', timeStyle: 'short' });
  const columns = {
    user: t('moderator.payouts.columns.user'),
    accountHolder: t('moderator.payouts.columns.accountHolder'),
    amount: t('moderator.payouts.columns.amount'),
    iban: t('moderator.payouts.columns.iban'),
    created: t('moderator.payouts.columns.created'),
    status: t('moderator.payouts.columns.status'),
    actions: t('moderator.payouts.columns.actions'),
  };
  return (
    <div className={styles.tableWrap}>
      {/* Explicit roles keep the table semantics when small screens restyle rows as cards. */}
      <table className={styles.table} role="table" aria-busy={busy}>
        <caption className="visually-hidden">{t('moderator.payouts.caption')}</caption>
        <ColumnHeaders labels={Object.values(columns)} />
        <tbody role="rowgroup">
          {items.map((payout) => (
            <tr key={payout.id} role="row">
              <td role="cell" data-label={columns.user}>
                <span className={styles.primary}>@{payout.user.username}</span>
                {payout.user.displayName ? (
                  <span className={styles.secondary}>{payout.user.displayName}</span>
                ) : null}
              </td>
              <td role="cell" data-label={columns.accountHolder}>
                <span className={styles.primary}>{payout.name}</span>
                <span className={styles.secondary}>
                  {[
                    payout.address,
                    `${payout.postalCode} ${payout.city}`.trim(),
                    countryName(payout.countryCode, language),
                  ]
                    .filter(Boolean)
                    .join(', ')}
                </span>
              </td>
              <td role="cell" data-label={columns.amount} className={styles.money}>
                {formatAmount(payout.amount, language)}
              </td>
              <td role="cell" data-label={columns.iban}>
                <span className={styles.iban}>{formatIban(payout.accountNumber)}</span>
                <span className={styles.secondary}>{payout.bic}</span>
              </td>
              <td role="cell" data-label={columns.created}>
                {date(payout.createdAt)}
              </td>
              <td role="cell" data-label={columns.status}>
                {payout.heldForReview ? (
                  // Why it waits and until when (issue 22, point 1): not "Open" like the others.
                  <>
                    <span className={styles.badgeHeld}>{t('moderator.payouts.held')}</span>
                    <span className={styles.secondary}>
                      {t('moderator.payouts.heldWhy', {
                        date: payout.ibanChangedAt ? date(payout.ibanChangedAt) : '',
                      })}
                    </span>
                  </>
                ) : (
                  <span
                    className={
                      payout.status === 'open' || payout.status === 'exported'
                        ? styles.badgeOpen
                        : styles.badgeDone
                    }
                  >
                    {(STATUSES as readonly string[]).includes(payout.status)
                      ? t(`moderator.payouts.status.${payout.status as (typeof STATUSES)[number]}`)
                      : payout.status}
                  </span>
                )}
                {payout.cancelledAt ? (
                  <span className={styles.secondary}>
                    {t('moderator.payouts.cancelledAt', { date: date(payout.cancelledAt) })}
                    {payout.cancelReason ? `: ${payout.cancelReason}` : null}
                  </span>
                ) : payout.completedAt ? (
                  <span className={styles.secondary}>
                    {t('moderator.payouts.paidAt', { date: date(payout.completedAt) })}
                  </span>
                ) : payout.exportedAt ? (
                  <span className={styles.secondary}>
                    {t('moderator.payouts.exportedAt', { date: date(payout.exportedAt) })}
                  </span>
                ) : null}
              </td>
              <td role="cell" data-label={columns.actions} className={styles.actionsCell}>
                {payout.heldForReview && payout.status === 'open' ? (
                  <Button
                    variant="primary"
                    size="sm"
                    onClick={() => onRelease(payout)}
                    aria-label={t('moderator.payouts.releaseFor', {
                      name: payout.name,
                      amount: formatAmount(payout.amount, language),
                    })}
                  >
                    {t('moderator.payouts.release')}
                  </Button>
                ) : null}
                {payout.status === 'exported' ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => onMarkPaid(payout)}
                    aria-label={t('moderator.payouts.markPaidFor', {
                      name: payout.name,
                      amount: formatAmount(payout.amount, language),
                    })}
                  >
                    {t('moderator.payouts.markPaid')}
                  </Button>
                ) : null}
                {payout.status === 'open' || payout.status === 'exported' ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => onCancel(payout)}
                    aria-label={t('moderator.payouts.cancelPayoutFor', {
                      name: payout.name,
                      amount: formatAmount(payout.amount, language),
                    })}
                  >
                    {t('moderator.payouts.cancelPayout')}
                  </Button>
                ) : (
                  <span className={styles.secondary}>—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Asks before marking a payout as paid: it moves the money out of the wallet for good. */
function MarkPaidDialog({
  payout,
  onClose,
  onDone,
}: {
  payout: PayoutRequest | null;
  onClose: () => void;
  onDone: (message: Message) => void;
}) {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const { setPayoutRequestAsCompleted, loading } = useSetPayoutRequestAsCompleted();
  const amount = payout ? formatAmount(payout.amount, i18n.language) : '';

  const confirm = async () => {
    if (!payout) return;
    const outcome = await setPayoutRequestAsCompleted(payout.id);
    if (outcome.ok) {
      toasts.success(t('moderator.payouts.markedPaid', { name: payout.name, amount }));
      onDone({
        tone: 'success',
        text: t('moderator.payouts.markedPaid', { name: payout.name, amount }),
      });
      return;
    }
    if (failureIdentifier(outcome) === 'payout_request_no_longer_open') {
      onDone({
        tone: 'warning',
        title: errorText(t, 'payout_request_no_longer_open'),
        text: t('moderator.payouts.noLongerOpen'),
      });
      return;
    }
    const text = describeFailure(t, outcome) ?? t('errors.generic_error');
    onDone({
      tone: 'error',
      title: t('moderator.payouts.markFailed'),
      text,
      detail: serverDetail(outcome, text),
    });
  };

  return (
    <Modal
      open={payout !== null}
      onClose={() => (loading ? undefined : onClose())}
      persistent={loading}
      size="sm"
      title={t('moderator.payouts.confirmTitle')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={loading}>
            {t('moderator.payouts.cancel')}
          </Button>
          <Button variant="primary" onClick={() => void confirm()} loading={loading}>
            {t('moderator.payouts.confirm')}
          </Button>
        </>
      }
    >
      {payout ? (
        <div className={styles.confirm}>
          <dl className={styles.facts}>
            <dt>{t('moderator.payouts.columns.user')}</dt>
            <dd>@{payout.user.username}</dd>
            <dt>{t('moderator.payouts.columns.accountHolder')}</dt>
            <dd>{payout.name}</dd>
            <dt>{t('moderator.payouts.columns.amount')}</dt>
            <dd className={styles.money}>{amount}</dd>
            <dt>{t('moderator.payouts.columns.iban')}</dt>
            <dd className={styles.iban}>{formatIban(payout.accountNumber)}</dd>
          </dl>
          <p>{t('moderator.payouts.confirmText')}</p>
        </div>
      ) : null}
    </Modal>
  );
}

/** Asks before releasing a held payout: who gets how much, and what to check first. */
function ReleaseDialog({
  payout,
  onClose,
  onDone,
}: {
  payout: PayoutRequest | null;
  onClose: () => void;
  onDone: (message: Message) => void;
}) {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const { releasePayoutRequest, loading } = useReleasePayoutRequest();
  const amount = payout ? formatAmount(payout.amount, i18n.language) : '';

  const confirm = async () => {
    if (!payout) return;
    const outcome = await releasePayoutRequest(payout.id);
    if (outcome.ok) {
      const text = t('moderator.payouts.released', { name: payout.name, amount });
      toasts.success(text);
      onDone({ tone: 'success', text });
      return;
    }
    const text = describeFailure(t, outcome) ?? t('errors.generic_error');
    onDone({
      tone: 'error',
      title: t('moderator.payouts.releaseFailed'),
      text,
      detail: serverDetail(outcome, text),
    });
  };

  return (
    <Modal
      open={payout !== null}
      onClose={() => (loading ? undefined : onClose())}
      persistent={loading}
      size="sm"
      title={t('moderator.payouts.releaseTitle')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={loading}>
            {t('moderator.payouts.cancel')}
          </Button>
          <Button variant="primary" onClick={() => void confirm()} loading={loading}>
            {t('moderator.payouts.releaseConfirm')}
          </Button>
        </>
      }
    >
      {payout ? (
        <div className={styles.confirm}>
          <dl className={styles.facts}>
            <dt>{t('moderator.payouts.columns.user')}</dt>
            <dd>@{payout.user.username}</dd>
            <dt>{t('moderator.payouts.columns.accountHolder')}</dt>
            <dd>{payout.name}</dd>
            <dt>{t('moderator.payouts.columns.amount')}</dt>
            <dd className={styles.money}>{amount}</dd>
            <dt>{t('moderator.payouts.columns.iban')}</dt>
            <dd className={styles.iban}>{formatIban(payout.accountNumber)}</dd>
          </dl>
          <p>{t('moderator.payouts.releaseText')}</p>
        </div>
      ) : null}
    </Modal>
  );
}

/**
 * Asks before cancelling a payout, with the reason staff must give: the frozen money goes back
 * to the user's available balance, and the payout can no longer be paid.
 */
function CancelPayoutDialog({
  payout,
  onClose,
  onDone,
}: {
  payout: PayoutRequest;
  onClose: () => void;
  onDone: (message: Message) => void;
}) {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const { cancelPayoutRequest, loading } = useCancelPayoutRequest();
  const amount = formatAmount(payout.amount, i18n.language);

  // Every outcome is told in the panel (and a toast), as for marking paid: the dialog closes.
  const submit = async (reason: string) => {
    const outcome = await cancelPayoutRequest(payout.id, reason);
    if (outcome.ok) {
      const text = t('moderator.payouts.cancelled', { name: payout.name, amount });
      toasts.success(text);
      onDone({ tone: 'success', text });
      return null;
    }
    if (failureIdentifier(outcome) === 'payout_request_no_longer_open') {
      onDone({
        tone: 'warning',
        title: errorText(t, 'payout_request_no_longer_open'),
        text: t('moderator.payouts.noLongerOpen'),
      });
      return null;
    }
    const text = describeFailure(t, outcome) ?? t('errors.generic_error');
    onDone({
      tone: 'error',
      title: t('moderator.payouts.cancelFailed'),
      text,
      detail: serverDetail(outcome, text),
    });
    return null;
  };

  return (
    <ReasonDialog
      title={t('moderator.payouts.cancelTitle')}
      submitLabel={t('moderator.payouts.cancelConfirm')}
      cancelLabel={t('moderator.payouts.keep')}
      size="sm"
      reasonLabel={t('moderator.payouts.cancelReason')}
      reasonHint={null}
      requiredMessage={t('moderator.payouts.cancelReasonRequired')}
      tooLongMessage={t('moderator.payouts.cancelReasonTooLong', { max: REASON_MAX })}
      lockWhileLoading
      loading={loading}
      onClose={onClose}
      onSubmit={submit}
    >
      <div className={styles.confirm}>
        <dl className={styles.facts}>
          <dt>{t('moderator.payouts.columns.user')}</dt>
          <dd>@{payout.user.username}</dd>
          <dt>{t('moderator.payouts.columns.accountHolder')}</dt>
          <dd>{payout.name}</dd>
          <dt>{t('moderator.payouts.columns.amount')}</dt>
          <dd className={styles.money}>{amount}</dd>
        </dl>
        <p>{t('moderator.payouts.cancelText')}</p>
      </div>
    </ReasonDialog>
  );
}

/** The SEPA credit-transfer file: pain.001.001.09 unless the bank needs the older .03. */
function ExportForm({ onExported }: { onExported: () => void }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const { exportPayoutRequests, loading } = useExportPayoutRequests();
  const [format, setFormat] = useState<SepaFormat>('pain.001.001.09');
  const [includeExported, setIncludeExported] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading) return;
    setMessage(null);
    const outcome = await exportPayoutRequests({ format, includeExported });
    // What the file left out, and why: payouts held after a change of bank account.
    const held = outcome.result;
    const heldCount = held?.heldForReviewCount ?? 0;
    const heldAmount = formatAmount(held?.heldForReviewAmount ?? 0, i18n.language);
    const nothing: Message =
      heldCount > 0
        ? {
            tone: 'warning',
            text: t('moderator.payouts.export.nothingHeld', {
              count: heldCount,
              amount: heldAmount,
            }),
          }
        : {
            tone: 'info',
            text: t('moderator.payouts.export.nothing'),
            detail: includeExported ? null : t('moderator.payouts.export.nothingHint'),
          };
    if (!outcome.ok) {
      // The wallet answers not_found when no open payout is left to put in a file.
      if (failureIdentifier(outcome) === 'not_found') return setMessage(nothing);
      const text = describeFailure(t, outcome);
      if (text) {
        setMessage({
          tone: 'error',
          title: t('moderator.payouts.export.failedTitle'),
          text,
          detail: serverDetail(outcome, text),
        });
      }
      return;
    }
    const { xml, fileName, payoutCount, totalAmount } = outcome.result;
    if (!xml || !payoutCount) return setMessage(nothing);
    const name = fileName?.trim() || `payouts.${format}.xml`;
    downloadTextFile(name, xml, 'application/xml');
    setMessage({
      tone: 'success',
      text: t('moderator.payouts.export.downloaded', {
        fileName: name,
        count: payoutCount,
        amount: formatAmount(totalAmount ?? 0, i18n.language),
      }),
      detail:
        heldCount > 0
          ? t('moderator.payouts.export.leftOut', { count: heldCount, amount: heldAmount })
          : null,
    });
    onExported();
  };

  return (
    <form className={layout.panel} onSubmit={submit} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h3 id={titleId} className={styles.subTitle}>
          {t('moderator.payouts.export.title')}
        </h3>
        <p className={styles.sectionText}>{t('moderator.payouts.export.text')}</p>
      </div>
      <div className={styles.exportControls}>
        <SelectField
          className={styles.filter}
          label={t('moderator.payouts.export.format')}
          name="format"
          value={format}
          onChange={(event) => setFormat(event.target.value as SepaFormat)}
        >
          {SEPA_FORMATS.map((value) => (
            <option key={value} value={value}>
              {value === 'pain.001.001.09'
                ? t('moderator.payouts.export.formatCurrent', { format: value })
                : t('moderator.payouts.export.formatOlder', { format: value })}
            </option>
          ))}
        </SelectField>
        <Checkbox
          label={t('moderator.payouts.export.includeExported')}
          name="includeExported"
          checked={includeExported}
          onChange={(event) => setIncludeExported(event.target.checked)}
        />
        <Button type="submit" variant="primary" loading={loading}>
          {t('moderator.payouts.export.download')}
        </Button>
      </div>
      {message ? (
        <Notice tone={message.tone} title={message.title}>
          <p>{message.text}</p>
          {message.detail ? <p>{message.detail}</p> : null}
        </Notice>
      ) : null}
    </form>
  );
}
