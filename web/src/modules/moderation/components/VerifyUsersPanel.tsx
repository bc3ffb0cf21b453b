import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/dates';
import { formatIban } from '../../../lib/iban';
import { describeFailure } from '../../../lib/mutationOutcome';
import { Button } from '../../../ui/Button';
import { Input } from '../../../ui/Input';
import { Notice, type NoticeTone } from '../../../ui/Notice';
import { SelectField } from '../../../ui/SelectField';
import layout from '../../../ui/layout.module.css';
import type { BanType } from '../graphql/Reports';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import type { UnverifiedUser } from '../graphql/UnverifiedUsers';
import { useGetUnverifiedUsers, useModeratorVerifyUser } from '../hooks/useUnverifiedUsers';
import { ColumnHeaders } from './ModeratorParts';
import { PagedListView } from './PagedListView';
import { ReasonDialog } from './ReasonDialog';
import styles from './Moderator.module.css';

type Message = { tone: NoticeTone; text: string };
type Choice = 'verify' | 'ban';

/** How long typing rests before the list is asked again. */
const SEARCH_DELAY_MS = 300;

/**
 * Accounts waiting for verification, newest first, with identity's and wallet's fields, found
 * by part of a username or e-mail address: verify or ban. Nobody decides on their own account
 * (the server refuses it too, ADR 70).
 */
export function VerifyUsersPanel() {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const { user: me } = useGetCurrentUser();
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => {
      setSearch(typed);
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);
  const list = useGetUnverifiedUsers(page, search);
  const [acting, setActing] = useState<{ user: UnverifiedUser; choice: Choice } | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const columns = {
    user: t('verifyUsers.columns.user'),
    phone: t('verifyUsers.columns.phone'),
    birthday: t('verifyUsers.columns.birthday'),
    payment: t('verifyUsers.columns.payment'),
    actions: t('verifyUsers.columns.actions'),
  };
  const act = (user: UnverifiedUser, choice: Choice) => {
    setMessage(null);
    setActing({ user, choice });
  };

  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h2 id={titleId} className={styles.sectionTitle}>
          {t('verifyUsers.title')}
        </h2>
        <p className={styles.sectionText}>{t('verifyUsers.text')}</p>
      </div>
      <div className={styles.listHeader}>
        <Input
          className={styles.filter}
          type="search"
          label={t('verifyUsers.search')}
          name="search"
          autoComplete="off"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        {list.pagination ? (
          <p className={styles.count} aria-live="polite">
            {t('verifyUsers.count', { count: list.pagination.totalCount })}
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
        empty={
          <p className={styles.empty}>
            {search.trim()
              ? t('verifyUsers.noMatch', { search: search.trim() })
              : t('verifyUsers.empty')}
          </p>
        }
        loadFailedTitle={t('verifyUsers.loadFailed')}
        pagesLabel={t('verifyUsers.pages')}
      >
        {(items) => (
          <div className={styles.tableWrap}>
            <table className={styles.table} role="table" aria-busy={list.fetching}>
              <caption className="visually-hidden">{t('verifyUsers.title')}</caption>
              <ColumnHeaders labels={Object.values(columns)} />
              <tbody role="rowgroup">
                {items.map((user) => {
                  const payment = user.user.paymentProfile;
                  return (
                    <tr key={user.id} role="row">
                      <td role="cell" data-label={columns.user}>
                        <span className={styles.primary}>@{user.username}</span>
                        <p>{user.email}</p>
                      </td>
                      <td role="cell" data-label={columns.phone}>
                        {user.phoneNumber ?? '—'}
                      </td>
                      <td role="cell" data-label={columns.birthday}>
                        {user.birthday ? formatDate(user.birthday, i18n.language) : '—'}
                      </td>
                      <td role="cell" data-label={columns.payment}>
                        {payment?.paymentAccountNumber ? (
                          <>
                            <span className={styles.primary}>{payment.paymentName}</span>
                            <p>{formatIban(payment.paymentAccountNumber)}</p>
                            <p>
                              {[
                                payment.paymentAddress,
                                payment.paymentPostalCode,
                                payment.paymentCity,
                              ]
                                .filter(Boolean)
                                .join(', ')}
                              {payment.paymentCountryCode ? ` (${payment.paymentCountryCode})` : ''}
                            </p>
                          </>
                        ) : (
                          t('verifyUsers.noPayment')
                        )}
                      </td>
                      <td role="cell" data-label={columns.actions} className={styles.actionsCell}>
                        {user.id === me?.id ? (
                          <p className={styles.secondary}>{t('verifyUsers.ownAccount')}</p>
                        ) : (
                          <div className={styles.rowActions}>
                            <Button
                              variant="primary"
                              size="sm"
                              onClick={() => act(user, 'verify')}
                              aria-label={t('verifyUsers.verifyUser', { username: user.username })}
                            >
                              {t('verifyUsers.verify')}
                            </Button>
                            <Button
                              variant="secondary"
                              size="sm"
                              onClick={() => act(user, 'ban')}
                              aria-label={t('verifyUsers.banUser', { username: user.username })}
                            >
                              {t('verifyUsers.ban')}
                            </Button>
                          </div>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </PagedListView>
      {acting ? (
        <DecisionDialog
          key={`${acting.user.id}-${acting.choice}`}
          user={acting.user}
          choice={acting.choice}
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

function DecisionDialog({
  user,
  choice,
  onClose,
  onDone,
}: {
  user: UnverifiedUser;
  choice: Choice;
  onClose: () => void;
  onDone: (message: Message) => void;
}) {
  const { t } = useTranslation();
  const { verifyUser, loading } = useModeratorVerifyUser();
  const [banType, setBanType] = useState<BanType>('hard');

  const submit = async (reason: string) => {
    const outcome = await verifyUser(
      user.id,
      choice === 'ban' ? { decision: 'ban', banType, reason } : { decision: 'verify' },
    );
    if (!outcome.ok) return describeFailure(t, outcome);
    onDone({
      tone: 'success',
      text: t(`verifyUsers.done.${choice}`, { username: user.username }),
    });
    return null;
  };

  return (
    <ReasonDialog
      title={t(`verifyUsers.confirm.${choice}`, { username: user.username })}
      submitLabel={t(`verifyUsers.${choice}`)}
      askReason={choice === 'ban'}
      loading={loading}
      onClose={onClose}
      onSubmit={submit}
    >
      {choice === 'ban' ? (
        <SelectField
          label={t('verifyUsers.banType')}
          name="banType"
          value={banType}
          onChange={(event) => setBanType(event.target.value === 'soft' ? 'soft' : 'hard')}
          status="hint"
          message={t(`verifyUsers.banTypes.${banType}Means`)}
        >
          <option value="hard">{t('verifyUsers.banTypes.hard')}</option>
          <option value="soft">{t('verifyUsers.banTypes.soft')}</option>
        </SelectField>
      ) : (
        <p>{t('verifyUsers.verifyText')}</p>
      )}
    </ReasonDialog>
  );
}
