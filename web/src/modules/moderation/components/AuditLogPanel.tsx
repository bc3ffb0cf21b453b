import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/dates';
import { formatAmount } from '../../../lib/money';
import { errorText } from '../../../lib/errorMessages';
import { Notice } from '../../../ui/Notice';
import { Pager } from '../../../ui/Pager';
import layout from '../../../ui/layout.module.css';
import { AuditEntriesDocument, type AuditEntry } from '../graphql/AuditEntries';
import { usePagedList } from '../hooks/usePagedList';
import { ColumnHeaders, Loading } from './ModeratorParts';
import styles from './Moderator.module.css';

const PER_PAGE = 50;

/** Every action the log records, in words (issue 22, point 6); an unknown one shows as sent. */
const ACTIONS = [
  'report_dismissed',
  'challenge_removed',
  'challenge_taken_offline',
  'user_hard_banned',
  'user_soft_banned',
  'user_unbanned',
  'user_verified',
  'referee_approved',
  'referee_rejected',
  'referee_case_escalated',
  'escrow_hold_released',
  'escrow_hold_captured',
  'payouts_exported',
  'payout_released',
  'payout_completed',
  'payout_cancelled',
] as const;
const isKnownAction = (action: string): action is (typeof ACTIONS)[number] =>
  (ACTIONS as readonly string[]).includes(action);

/** Admins: who did what to what, when and why; read-only, as the log itself. */
export function AuditLogPanel() {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const [page, setPage] = useState(1);
  const list = usePagedList(
    AuditEntriesDocument,
    { page, itemsPerPage: PER_PAGE },
    (data) => data.paginatedListOfAuditEntries,
  );
  const { items, failure, fetching } = list;
  const columns = {
    when: t('auditLog.columns.when'),
    actor: t('auditLog.columns.actor'),
    action: t('auditLog.columns.action'),
    target: t('auditLog.columns.target'),
    reason: t('auditLog.columns.reason'),
  };
  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h2 id={titleId} className={styles.sectionTitle}>
          {t('auditLog.title')}
        </h2>
        <p className={styles.sectionText}>{t('auditLog.text')}</p>
      </div>
      {items ? (
        items.length === 0 ? (
          <p className={styles.empty}>{t('auditLog.empty')}</p>
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table} role="table" aria-busy={fetching}>
              <caption className="visually-hidden">{t('auditLog.title')}</caption>
              <ColumnHeaders labels={Object.values(columns)} />
              <tbody role="rowgroup">
                {items.map((entry) => (
                  <tr key={entry.id} role="row">
                    <td role="cell" data-label={columns.when}>
                      {formatDate(entry.createdAt, i18n.language, {
                        dateStyle: 'medium',
                        timeStyle: 'short',
                      })}
                    </td>
                    <td role="cell" data-label={columns.actor}>
                      {entry.actor ? `@${entry.actor.username}` : t('auditLog.system')}
                    </td>
                    <td role="cell" data-label={columns.action}>
                      <span className={styles.primary}>
                        {isKnownAction(entry.action)
                          ? t(`auditLog.actions.${entry.action}`)
                          : entry.action}
                      </span>
                    </td>
                    <td role="cell" data-label={columns.target}>
                      <AuditTarget entry={entry} />
                    </td>
                    <td role="cell" data-label={columns.reason}>
                      {entry.reason ?? '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : list.loading ? (
        <Loading />
      ) : (
        <Notice tone="error" title={t('auditLog.loadFailed')}>
          {failure ? <p>{errorText(t, failure.identifier, failure.message)}</p> : null}
        </Notice>
      )}
      <Pager
        page={list.pagination?.currentPage ?? page}
        totalPages={list.pagination?.totalPages ?? 1}
        onPage={setPage}
        label={t('auditLog.pages')}
        disabled={fetching}
      />
    </section>
  );
}

/** What an entry was about, named: the challenge (linked), the user, the amount. */
function AuditTarget({ entry }: { entry: AuditEntry }) {
  const { t, i18n } = useTranslation();
  const amount = entry.amount === null ? null : formatAmount(entry.amount, i18n.language);
  const user = entry.subjectUser ? `@${entry.subjectUser.username}` : null;
  const parts: ReactNode[] = [];
  if (entry.challengeName) {
    parts.push(
      entry.challengeSlug ? (
        <Link key="challenge" to={`/challenge/${encodeURIComponent(entry.challengeSlug)}/detail`}>
          {entry.challengeName}
        </Link>
      ) : (
        <span key="challenge">{entry.challengeName}</span>
      ),
    );
  }
  if (entry.targetType === 'PayoutExport') {
    parts.push(
      <span key="export">
        {t('auditLog.export', { count: entry.itemCount ?? 0, amount: amount ?? '' })}
      </span>,
    );
  } else if (amount && user) {
    parts.push(<span key="money">{t('auditLog.amountTo', { amount, user })}</span>);
  } else if (user) {
    parts.push(<span key="user">{user}</span>);
  } else if (amount) {
    parts.push(<span key="amount">{amount}</span>);
  }
  if (parts.length === 0)
    return <span className={styles.secondary}>{t('auditLog.unknownTarget')}</span>;
  return <span className={styles.targetParts}>{parts}</span>;
}
