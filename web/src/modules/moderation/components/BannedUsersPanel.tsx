import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/dates';
import { describeFailure } from '../../../lib/mutationOutcome';
import { Button } from '../../../ui/Button';
import { Notice, type NoticeTone } from '../../../ui/Notice';
import { SelectField } from '../../../ui/SelectField';
import layout from '../../../ui/layout.module.css';
import type { BannedUser } from '../graphql/BannedUsers';
import type { BanType } from '../graphql/Reports';
import { useGetBannedUsers, useUnbanUser } from '../hooks/useBannedUsers';
import { ColumnHeaders } from './ModeratorParts';
import { PagedListView } from './PagedListView';
import { REASON_MAX, ReasonDialog } from './ReasonDialog';
import styles from './Moderator.module.css';

type Message = { tone: NoticeTone; text: string };

/** Banned users (hard by default, as the spec's tab; soft too), each can be unbanned. */
export function BannedUsersPanel() {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const [type, setType] = useState<BanType>('hard');
  const [page, setPage] = useState(1);
  const list = useGetBannedUsers(type, page);
  const [unbanning, setUnbanning] = useState<BannedUser | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const columns = {
    user: t('bannedUsers.columns.user'),
    bannedAt: t('bannedUsers.columns.bannedAt'),
    actions: t('bannedUsers.columns.actions'),
  };

  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h2 id={titleId} className={styles.sectionTitle}>
          {t('bannedUsers.title')}
        </h2>
        <p className={styles.sectionText}>{t('bannedUsers.text')}</p>
      </div>
      <div className={styles.listHeader}>
        <SelectField
          className={styles.filter}
          label={t('bannedUsers.type')}
          name="banType"
          value={type}
          onChange={(event) => {
            setType(event.target.value === 'soft' ? 'soft' : 'hard');
            setPage(1);
            setMessage(null);
          }}
        >
          <option value="hard">{t('bannedUsers.types.hard')}</option>
          <option value="soft">{t('bannedUsers.types.soft')}</option>
        </SelectField>
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
        empty={<p className={styles.empty}>{t('bannedUsers.empty')}</p>}
        loadFailedTitle={t('bannedUsers.loadFailed')}
        pagesLabel={t('bannedUsers.pages')}
      >
        {(items) => (
          <div className={styles.tableWrap}>
            <table className={styles.table} role="table" aria-busy={list.fetching}>
              <caption className="visually-hidden">{t('bannedUsers.title')}</caption>
              <ColumnHeaders labels={Object.values(columns)} />
              <tbody role="rowgroup">
                {items.map((user) => (
                  <tr key={user.id} role="row">
                    <td role="cell" data-label={columns.user}>
                      <span className={styles.primary}>@{user.username}</span>
                    </td>
                    <td role="cell" data-label={columns.bannedAt}>
                      {user.bannedAt
                        ? formatDate(user.bannedAt, i18n.language, {
                            dateStyle: 'medium',
                            timeStyle: 'short',
                          })
                        : '—'}
                    </td>
                    <td role="cell" data-label={columns.actions} className={styles.actionsCell}>
                      <Button
                        variant="secondary"
                        size="sm"
                        onClick={() => {
                          setMessage(null);
                          setUnbanning(user);
                        }}
                        aria-label={t('bannedUsers.unbanUser', { username: user.username })}
                      >
                        {t('bannedUsers.unban')}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </PagedListView>
      {unbanning ? (
        <UnbanDialog
          user={unbanning}
          onClose={() => setUnbanning(null)}
          onDone={(result) => {
            setUnbanning(null);
            setMessage(result);
            void list.refetch();
          }}
        />
      ) : null}
    </section>
  );
}

/** Lifts a ban after staff give their reason, which the audit log keeps (issue 22, point 6). */
function UnbanDialog({
  user,
  onClose,
  onDone,
}: {
  user: BannedUser;
  onClose: () => void;
  onDone: (message: Message) => void;
}) {
  const { t } = useTranslation();
  const { unbanUser, loading } = useUnbanUser();
  const submit = async (reason: string) => {
    const outcome = await unbanUser(user.id, reason);
    if (outcome.ok) {
      onDone({ tone: 'success', text: t('bannedUsers.done', { username: user.username }) });
      return null;
    }
    return describeFailure(t, outcome) ?? t('errors.generic_error');
  };
  return (
    <ReasonDialog
      title={t('bannedUsers.confirm', { username: user.username })}
      submitLabel={t('bannedUsers.unban')}
      cancelLabel={t('report.cancel')}
      size="sm"
      reasonLabel={t('bannedUsers.reason')}
      reasonHint={null}
      requiredMessage={t('bannedUsers.reasonRequired')}
      tooLongMessage={t('bannedUsers.reasonTooLong', { max: REASON_MAX })}
      loading={loading}
      onClose={onClose}
      onSubmit={submit}
    >
      <p>{t('bannedUsers.confirmText')}</p>
    </ReasonDialog>
  );
}
