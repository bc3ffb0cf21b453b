import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errorMessages';
import { Button, ButtonLink } from '../../../ui/Button';
import { AlertIcon, TrophyIcon } from '../../../ui/icons';
import layout from '../../../ui/layout.module.css';
import { PageLoader } from '../../../ui/PageLoader';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import { Pager } from '../../../ui/Pager';
import { ProfileListsDocument } from '../../profile/graphql/ProfileLists';
import { PublicChallengeCard } from './PublicChallengeCard';
import styles from './Challenge.module.css';

export const COMPLETED_PAGE_SIZE = 12;

/**
 * The dashboard's completed tab: the user's own completed challenges, private ones included
 * (the profile's completed list asked with showPrivate, which the server grants only the
 * profile's own user), a page at a time.
 */
export function CompletedChallenges({ username }: { username: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const { data, previousData, loading, error, refetch } = useQuery(ProfileListsDocument, {
    variables: {
      username,
      showPrivate: true,
      page,
      itemsPerPage: COMPLETED_PAGE_SIZE,
      running: false,
      completed: true,
      uploaded: false,
      respected: false,
    },
  });
  const result = (data ?? previousData)?.getUserProfile;
  const items = result?.status.success ? (result.profile?.completedChallenges ?? []) : null;
  const title = t('notifications.dashboard.tabs.completed');

  if (items === null) {
    if (loading && !error && !result) return <PageLoader />;
    return (
      <div className={layout.alert} role="alert">
        <AlertIcon size={20} />
        <div className={layout.alertBody}>
          <p>{t('challenge.dashboard.loadFailed')}</p>
          {result ? <p>{errorText(t, result.status.identifier, result.status.message)}</p> : null}
          <div>
            <Button variant="secondary" size="sm" onClick={() => void refetch()}>
              {t('challenge.retry')}
            </Button>
          </div>
        </div>
      </div>
    );
  }
  if (items.length === 0) {
    return (
      <PagePlaceholder
        as="h2"
        icon={<TrophyIcon size={28} />}
        title={t('challenge.dashboard.completedEmptyTitle')}
        description={t('challenge.dashboard.completedEmptyText')}
      >
        <ButtonLink to="/challenge/create/step-1" variant="action-gradient">
          {t('challenge.startOne')}
        </ButtonLink>
      </PagePlaceholder>
    );
  }
  const total = result?.profile?.completedChallengesCount ?? items.length;
  return (
    <>
      <ul className={styles.list} aria-label={title} aria-busy={loading}>
        {items.map((challenge) => (
          <PublicChallengeCard key={challenge.id} challenge={challenge} />
        ))}
      </ul>
      <Pager
        page={page}
        totalPages={Math.max(1, Math.ceil(total / COMPLETED_PAGE_SIZE))}
        onPage={setPage}
        disabled={loading}
        label={t('discover.pages', { list: title })}
      />
    </>
  );
}
