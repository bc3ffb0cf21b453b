import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Avatar } from '../../../ui/Avatar';
import { Button } from '../../../ui/Button';
import { Modal } from '../../../ui/Modal';
import { Spinner } from '../../../ui/Spinner';
import type { FollowsPageState } from '../hooks/followsPage';
import { useGetFollowers } from '../hooks/useGetFollowers';
import { useGetFollowing } from '../hooks/useGetFollowing';
import styles from './Profile.module.css';

export type FollowsList = 'followers' | 'following';

/** The followers or the followed users of a profile, a page at a time. */
export function FollowsDialog({
  list,
  username,
  name,
  onClose,
}: {
  list: FollowsList | null;
  username: string;
  name: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={list !== null}
      onClose={onClose}
      size="sm"
      title={
        list === 'following'
          ? t('profile.followingTitle', { name })
          : t('profile.followersTitle', { name })
      }
    >
      {list === 'followers' ? <FollowersList username={username} onPick={onClose} /> : null}
      {list === 'following' ? <FollowingList username={username} onPick={onClose} /> : null}
    </Modal>
  );
}

function FollowersList({ username, onPick }: { username: string; onPick: () => void }) {
  const [page, setPage] = useState(1);
  const state = useGetFollowers(username, page);
  return <UserList state={state} setPage={setPage} onPick={onPick} emptyKey="followers" />;
}

function FollowingList({ username, onPick }: { username: string; onPick: () => void }) {
  const [page, setPage] = useState(1);
  const state = useGetFollowing(username, page);
  return <UserList state={state} setPage={setPage} onPick={onPick} emptyKey="following" />;
}

function UserList({
  state,
  setPage,
  onPick,
  emptyKey,
}: {
  state: FollowsPageState;
  setPage: (page: number) => void;
  onPick: () => void;
  emptyKey: FollowsList;
}) {
  const { t } = useTranslation();
  if (state.loading) {
    return (
      <div className={styles.listState} role="status">
        <Spinner size="md" />
        <span className="visually-hidden">{t('ui.loading')}</span>
      </div>
    );
  }
  if (!state.page) {
    return (
      <p className={styles.listState} role="alert">
        {t('profile.listFailed')}
      </p>
    );
  }
  const { items, pagination } = state.page;
  if (items.length === 0) {
    return <p className={styles.listState}>{t(`profile.empty.${emptyKey}`)}</p>;
  }
  const current = pagination?.currentPage ?? 1;
  const total = pagination?.totalPages ?? 1;
  return (
    <div className={styles.listWrap}>
      <ul className={styles.userList}>
        {items.map((item) => {
          const itemName = item.displayName?.trim() || item.username;
          return (
            <li key={item.id}>
              <Link
                className={styles.userItem}
                to={`/profile/${encodeURIComponent(item.username)}`}
                onClick={onPick}
              >
                <Avatar name={itemName} src={item.avatar} size="sm" />
                <span className={styles.userText}>
                  <span className={styles.userName}>{itemName}</span>
                  <span className={styles.userHandle}>@{item.username}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
      {total > 1 ? (
        <nav className={styles.pager} aria-label={t('profile.pagination')}>
          <Button
            variant="secondary"
            size="sm"
            disabled={current <= 1}
            onClick={() => setPage(current - 1)}
          >
            {t('profile.previousPage')}
          </Button>
          <span aria-live="polite">{t('profile.pageOf', { page: current, total })}</span>
          <Button
            variant="secondary"
            size="sm"
            disabled={current >= total}
            onClick={() => setPage(current + 1)}
          >
            {t('profile.nextPage')}
          </Button>
        </nav>
      ) : null}
    </div>
  );
}
