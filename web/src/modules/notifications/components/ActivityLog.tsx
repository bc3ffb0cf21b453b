import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../../lib/errorMessages';
import { formatAmount } from '../../../lib/money';
import { Avatar } from '../../../ui/Avatar';
import { Button } from '../../../ui/Button';
import { AlertIcon } from '../../../ui/icons';
import { PageLoader } from '../../../ui/PageLoader';
import { RelativeTime } from '../../../ui/RelativeTime';
import layout from '../../../ui/layout.module.css';
import type { ActivityLogEntry, ActivityType } from '../graphql/ActivityLog';
import { useGetActivityLog } from '../hooks/useGetActivityLog';
import { StatusBadge } from '../../challenge/components/StatusBadge';
import styles from './Notifications.module.css';

/** The challenge dashboard's activity tab: what happened in the user's challenges, newest first. */
export function ActivityLog() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const { entries, pagination, failure, requestFailed, loading, refetch } = useGetActivityLog(page);

  if (loading) return <PageLoader />;
  if (!entries) {
    return (
      <div className={layout.alert} role="alert">
        <AlertIcon size={20} />
        <div className={layout.alertBody}>
          <p>{t('notifications.activity.loadFailed')}</p>
          {failure ? <p>{errorText(t, failure.identifier, failure.message)}</p> : null}
          {failure || requestFailed ? (
            <div className={styles.alertActions}>
              <Button variant="secondary" size="sm" onClick={refetch}>
                {t('notifications.retry')}
              </Button>
            </div>
          ) : null}
        </div>
      </div>
    );
  }
  if (entries.length === 0 && page === 1) {
    return <p className={styles.empty}>{t('notifications.activity.empty')}</p>;
  }
  const totalPages = pagination?.totalPages ?? 1;
  return (
    <section className={styles.activity} aria-label={t('notifications.activity.title')}>
      <ol className={styles.entries}>
        {entries.map((entry) => (
          <ActivityItem key={entry.id} entry={entry} />
        ))}
      </ol>
      {totalPages > 1 ? (
        <nav className={styles.pager} aria-label={t('notifications.activity.pages')}>
          <Button
            variant="secondary"
            size="sm"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            {t('notifications.activity.newer')}
          </Button>
          <span aria-live="polite">
            {t('notifications.activity.pageOf', { page, total: totalPages })}
          </span>
          <Button
            variant="secondary"
            size="sm"
            disabled={page >= totalPages}
            onClick={() => setPage(page + 1)}
          >
            {t('notifications.activity.older')}
          </Button>
        </nav>
      ) : null}
    </section>
  );
}

/** How a challenge ended: shown as its status badge, so outcomes stand out in the log. */
const OUTCOMES: readonly ActivityType[] = ['completed', 'failed', 'expired'];

function ActivityItem({ entry }: { entry: ActivityLogEntry }) {
  const { t, i18n } = useTranslation();
  const name = entry.user
    ? entry.user.displayName?.trim() || entry.user.username
    : t('notifications.activity.someone');
  return (
    <li className={styles.entry}>
      <Avatar name={name} src={entry.user?.avatar ?? null} size="sm" />
      <div className={styles.entryText}>
        <span className={styles.entrySentence}>
          {t(`notifications.activity.types.${entry.type}`, { user: name })}
          {OUTCOMES.includes(entry.type) ? <StatusBadge status={entry.type} /> : null}
        </span>
        <span className={styles.entryChallenge}>
          <Link to={`/challenge/${encodeURIComponent(entry.challenge.slug)}/detail`}>
            {entry.challenge.challengeName}
          </Link>
          {' · '}
          {formatAmount(entry.challenge.challengeReward, i18n.language)}
        </span>
      </div>
      <span className={styles.entryTime}>
        <RelativeTime value={entry.timestamp} />
      </span>
    </li>
  );
}
