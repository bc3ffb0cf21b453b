import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { describeFailure } from '../../../lib/mutationOutcome';
import { Button } from '../../../ui/Button';
import { Notice, type NoticeTone } from '../../../ui/Notice';
import { SelectField } from '../../../ui/SelectField';
import layout from '../../../ui/layout.module.css';
import type { ReportEntityType } from '../graphql/CreateReport';
import type { BanType, ModerateAction, StaffReport } from '../graphql/Reports';
import { useBanUser, useGetReports, useModerateReport } from '../hooks/useReports';
import { ColumnHeaders } from './ModeratorParts';
import { PagedListView } from './PagedListView';
import { ReasonDialog } from './ReasonDialog';
import styles from './Moderator.module.css';

/** What staff can do with a report: moderation's actions, or identity's ban for a user. */
type StaffAction = ModerateAction | `ban_${BanType}`;

const CHALLENGE_ACTIONS: readonly StaffAction[] = ['dismiss', 'take_offline', 'remove'];
const USER_ACTIONS: readonly StaffAction[] = ['dismiss', 'ban_soft', 'ban_hard'];

type Message = { tone: NoticeTone; text: string };

/** Reported challenges and users: dismiss, take offline, remove, or ban (soft or hard). */
export function ReportsPanel() {
  const { t } = useTranslation();
  const titleId = useId();
  const [type, setType] = useState<ReportEntityType>('Challenge');
  const [page, setPage] = useState(1);
  const list = useGetReports(type, page);
  const [acting, setActing] = useState<{ report: StaffReport; action: StaffAction } | null>(null);
  const [message, setMessage] = useState<Message | null>(null);

  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h2 id={titleId} className={styles.sectionTitle}>
          {t('report.console.title')}
        </h2>
        <p className={styles.sectionText}>{t('report.console.text')}</p>
      </div>
      <div className={styles.listHeader}>
        <SelectField
          className={styles.filter}
          label={t('report.console.type')}
          name="type"
          value={type}
          onChange={(event) => {
            setType(event.target.value === 'User' ? 'User' : 'Challenge');
            setPage(1);
            setMessage(null);
          }}
        >
          <option value="Challenge">{t('report.console.types.Challenge')}</option>
          <option value="User">{t('report.console.types.User')}</option>
        </SelectField>
        {list.pagination ? (
          <p className={styles.count} aria-live="polite">
            {t('report.console.count', { count: list.pagination.totalCount })}
          </p>
        ) : null}
      </div>

      {message ? (
        <Notice tone={message.tone}>
          <p>{message.text}</p>
        </Notice>
      ) : null}

      <PagedListView
        list={list}
        page={page}
        onPage={setPage}
        empty={<p className={styles.empty}>{t('report.console.empty')}</p>}
        loadFailedTitle={t('report.console.loadFailed')}
        pagesLabel={t('report.console.pages')}
      >
        {(items) => (
          <ReportTable
            items={items}
            busy={list.fetching}
            actions={type === 'Challenge' ? CHALLENGE_ACTIONS : USER_ACTIONS}
            onAct={(report, action) => {
              setMessage(null);
              setActing({ report, action });
            }}
          />
        )}
      </PagedListView>

      {acting ? (
        <ActionDialog
          key={`${acting.report.id}-${acting.action}`}
          report={acting.report}
          action={acting.action}
          onClose={() => setActing(null)}
          onDone={(result) => {
            setActing(null);
            setMessage(result);
            void list.refetch();
          }}
        />
      ) : null}
    </section>
  );
}

function ReportTable({
  items,
  busy,
  actions,
  onAct,
}: {
  items: StaffReport[];
  busy: boolean;
  actions: readonly StaffAction[];
  onAct: (report: StaffReport, action: StaffAction) => void;
}) {
  const { t } = useTranslation();
  const columns = {
    subject: t('report.console.columns.subject'),
    reason: t('report.console.columns.reason'),
    reporter: t('report.console.columns.reporter'),
    actions: t('report.console.columns.actions'),
  };
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} role="table" aria-busy={busy}>
        <caption className="visually-hidden">{t('report.console.caption')}</caption>
        <ColumnHeaders labels={Object.values(columns)} />
        <tbody role="rowgroup">
          {items.map((report) => (
            <tr key={report.id} role="row">
              <td role="cell" data-label={columns.subject}>
                <Link className={styles.primary} to={report.url}>
                  {report.title}
                </Link>
              </td>
              <td role="cell" data-label={columns.reason}>
                <span className={styles.primary}>
                  {t(`report.reasons.${report.reason}`, { defaultValue: report.reason })}
                </span>
                {report.details ? <p>{report.details}</p> : null}
              </td>
              <td role="cell" data-label={columns.reporter}>
                @{report.reporter.username}
              </td>
              <td role="cell" data-label={columns.actions} className={styles.actionsCell}>
                <div className={styles.rowActions}>
                  {actions.map((action) => (
                    <Button
                      key={action}
                      variant={action === 'dismiss' ? 'secondary' : 'primary'}
                      size="xs"
                      onClick={() => onAct(report, action)}
                      aria-label={t('report.console.actionOn', {
                        action: t(`report.console.actions.${action}`),
                        title: report.title,
                      })}
                    >
                      {t(`report.console.actions.${action}`)}
                    </Button>
                  ))}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every staff action takes a written reason: it goes to the audit log. */
function ActionDialog({
  report,
  action,
  onClose,
  onDone,
}: {
  report: StaffReport;
  action: StaffAction;
  onClose: () => void;
  onDone: (message: Message) => void;
}) {
  const { t } = useTranslation();
  const moderate = useModerateReport();
  const ban = useBanUser();

  const submit = async (reason: string) => {
    const outcome =
      action === 'ban_soft' || action === 'ban_hard'
        ? await ban.banUser(report.entityId, action === 'ban_soft' ? 'soft' : 'hard', reason)
        : await moderate.moderateReport(report.id, action, reason);
    if (!outcome.ok) return describeFailure(t, outcome);
    onDone({ tone: 'success', text: t(`report.console.done.${action}`, { title: report.title }) });
    return null;
  };

  return (
    <ReasonDialog
      title={t(`report.console.confirm.${action}`, { title: report.title })}
      submitLabel={t(`report.console.actions.${action}`)}
      loading={moderate.loading || ban.loading}
      onClose={onClose}
      onSubmit={submit}
    />
  );
}
