import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/dates';
import { errorText } from '../../../lib/errorMessages';
import { Notice } from '../../../ui/Notice';
import { Pager } from '../../../ui/Pager';
import layout from '../../../ui/layout.module.css';
import { AuditEntriesDocument } from '../graphql/AuditEntries';
import { usePagedList } from '../hooks/usePagedList';
import { ColumnHeaders, Loading } from './ModeratorParts';
import styles from './Moderator.module.css';

const PER_PAGE = 50;

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
                      <span className={styles.primary}>{entry.action}</span>
                    </td>
                    <td role="cell" data-label={columns.target}>
                      {entry.targetType} {entry.targetId}
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
