import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cx } from '../../../lib/cx';
import { formatDate } from '../../../lib/dates';
import { describeFailure, failureIdentifier } from '../../../lib/mutationOutcome';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button } from '../../../ui/Button';
import { AlertIcon } from '../../../ui/icons';
import { Modal } from '../../../ui/Modal';
import { Notice } from '../../../ui/Notice';
import layout from '../../../ui/layout.module.css';
import { useToasts } from '../../../ui/toast/Toasts';
import type { OwnReport } from '../graphql/MyReports';
import { useDeleteReport } from '../hooks/useDeleteReport';
import { useMyReports } from '../hooks/useMyReports';
import { PagedListView } from './PagedListView';
import styles from './MyReports.module.css';

/**
 * /settings/my-reports: the reporter's own reports, newest first, with what staff did about each
 * (pending, actioned and how, dismissed); an open report can be withdrawn (docs/adr/0059).
 */
export function MyReportsPage() {
  const { t } = useTranslation();
  usePageMeta(`${t('myReports.title')} · ${t('settings.title')}`);
  const titleId = useId();
  const [page, setPage] = useState(1);
  const list = useMyReports(page);
  const [withdrawing, setWithdrawing] = useState<OwnReport | null>(null);

  return (
    <section className={styles.page} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h2 id={titleId} className={layout.panelTitle}>
          {t('myReports.title')}
        </h2>
        <p className={layout.panelText}>{t('myReports.text')}</p>
      </div>

      <PagedListView
        list={list}
        page={page}
        onPage={setPage}
        empty={
          <div className={styles.empty}>
            <span className={layout.iconTile} aria-hidden="true">
              <AlertIcon size={24} />
            </span>
            <h3 className={styles.emptyTitle}>{t('myReports.emptyTitle')}</h3>
            <p>{t('myReports.emptyText')}</p>
          </div>
        }
        loadFailedTitle={t('myReports.loadFailed')}
        pagesLabel={t('myReports.pages')}
      >
        {(items) => (
          <>
            {list.pagination ? (
              <p className={styles.count}>
                {t('myReports.count', { count: list.pagination.totalCount })}
              </p>
            ) : null}
            <ul
              className={styles.list}
              aria-label={t('myReports.listLabel')}
              aria-busy={list.fetching}
            >
              {items.map((report) => (
                <ReportCard key={report.id} report={report} onWithdraw={setWithdrawing} />
              ))}
            </ul>
          </>
        )}
      </PagedListView>

      {withdrawing ? (
        <WithdrawDialog
          key={withdrawing.id}
          report={withdrawing}
          onClose={() => setWithdrawing(null)}
          onWithdrawn={() => {
            setWithdrawing(null);
            void list.refetch();
          }}
          onStale={() => void list.refetch()}
        />
      ) : null}
    </section>
  );
}

/** A challenge taken offline or removed has no page any more: its title is not a link. */
function isGone(report: OwnReport): boolean {
  return report.action === 'taken_offline' || report.action === 'removed';
}

const OUTCOME_TONE = {
  pending: styles.pending,
  actioned: styles.actioned,
  dismissed: styles.dismissed,
} as const;

function ReportCard({
  report,
  onWithdraw,
}: {
  report: OwnReport;
  onWithdraw: (report: OwnReport) => void;
}) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const date = (value: string) => formatDate(value, i18n.language, { dateStyle: 'medium' });
  const name = report.entityType === 'User' ? `@${report.title}` : report.title;
  const explanation =
    report.outcome === 'actioned' && report.action
      ? t(`myReports.explained.${report.action}`)
      : t(`myReports.explained.${report.outcome === 'dismissed' ? 'dismissed' : 'pending'}`);

  return (
    <li className={styles.card} aria-labelledby={headingId}>
      <div className={styles.cardHeader}>
        <div className={styles.subject}>
          <span className={styles.type}>{t(`myReports.types.${report.entityType}`)}</span>
          <h3 id={headingId} className={styles.title}>
            {isGone(report) ? <span>{name}</span> : <Link to={report.url}>{name}</Link>}
          </h3>
          {isGone(report) ? (
            <span className={styles.muted}>{t('myReports.noLongerOnline')}</span>
          ) : null}
        </div>
        <span className={cx(styles.outcome, OUTCOME_TONE[report.outcome])}>
          {t(`myReports.outcomes.${report.outcome}`)}
        </span>
      </div>

      <dl className={styles.facts}>
        <dt>{t('myReports.reason')}</dt>
        <dd>{t(`report.reasons.${report.reason}`, { defaultValue: report.reason })}</dd>
        {report.details ? (
          <>
            <dt>{t('myReports.details')}</dt>
            <dd className={styles.details}>{report.details}</dd>
          </>
        ) : null}
      </dl>

      <p className={styles.explanation}>
        {explanation}
        {report.resolvedAt ? (
          <>
            {' '}
            <span className={styles.muted}>
              {t('myReports.decidedOn', { date: date(report.resolvedAt) })}
            </span>
          </>
        ) : null}
      </p>

      <div className={styles.cardFooter}>
        <span className={styles.muted}>
          {t('myReports.reportedOn', { date: date(report.createdAt) })}
        </span>
        {report.outcome === 'pending' ? (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => onWithdraw(report)}
            aria-label={t('myReports.withdrawOn', { title: name })}
          >
            {t('myReports.withdraw')}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/** Asks before withdrawing; says so when staff handled the report in the meantime. */
function WithdrawDialog({
  report,
  onClose,
  onWithdrawn,
  onStale,
}: {
  report: OwnReport;
  onClose: () => void;
  onWithdrawn: () => void;
  /** The report is no longer open: the list is out of date. */
  onStale: () => void;
}) {
  const { t } = useTranslation();
  const toasts = useToasts();
  const { deleteReport, loading } = useDeleteReport();
  const [failure, setFailure] = useState<string | null>(null);
  const [handled, setHandled] = useState(false);
  const title = report.entityType === 'User' ? `@${report.title}` : report.title;

  const withdraw = async () => {
    if (loading) return;
    setFailure(null);
    const outcome = await deleteReport(report.id);
    if (outcome.ok) {
      toasts.success(t('myReports.withdrawn'));
      onWithdrawn();
      return;
    }
    if (failureIdentifier(outcome) === 'not_found') {
      setHandled(true);
      onStale();
      return;
    }
    setFailure(describeFailure(t, outcome));
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={t('myReports.confirmTitle', { title })}
      size="md"
      footer={
        <>
          {handled ? (
            <Button variant="primary" onClick={onClose}>
              {t('report.close')}
            </Button>
          ) : (
            <>
              <Button variant="secondary" onClick={onClose}>
                {t('myReports.keep')}
              </Button>
              <Button variant="primary" loading={loading} onClick={() => void withdraw()}>
                {t('myReports.withdraw')}
              </Button>
            </>
          )}
        </>
      }
    >
      {handled ? (
        <Notice tone="info">
          <p>{t('myReports.alreadyHandled')}</p>
        </Notice>
      ) : (
        <p>{t('myReports.confirmText')}</p>
      )}
      {failure ? <p role="alert">{failure}</p> : null}
    </Modal>
  );
}
