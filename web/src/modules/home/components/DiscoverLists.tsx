import { createContext, useContext, useDeferredValue, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../../lib/errorMessages';
import type { ResponseStatus } from '../../../lib/graphql';
import { Avatar } from '../../../ui/Avatar';
import { Button, ButtonLink } from '../../../ui/Button';
import { AlertIcon } from '../../../ui/icons';
import layout from '../../../ui/layout.module.css';
import { PageLoader } from '../../../ui/PageLoader';
import { Pager } from '../../../ui/Pager';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { useModalRoute } from '../../auth/hooks/useModalRoute';
import { nameOf } from '../../challenge/components/ChallengeCard';
import { PublicChallengeCard } from '../../challenge/components/PublicChallengeCard';
import challengeStyles from '../../challenge/components/Challenge.module.css';
import type { DiscoverSection } from '../../shell/discover';
import type { DiscoverChallengesList } from '../graphql/DiscoverChallenges';
import { useDiscoverChallenges, type DiscoverListState } from '../hooks/useDiscoverChallenges';
import { useDiscoverUsers } from '../hooks/useDiscoverUsers';
import styles from './HomePage.module.css';

const CHALLENGE_LIST: Record<Exclude<DiscoverSection, 'users'>, DiscoverChallengesList> = {
  challenges: 'all',
  solo: 'solo',
  duel: 'duel',
  following: 'following',
};

/** The list of one discover entry, a page at a time. Remount (key) it to start at page 1. */
/**
 * The list of a discover section. `emptyHeading`: the level of an empty list's title, one below
 * the section's title (h1 for someone logged in, h2 under a visitor's hero; axe: heading-order).
 */
export function DiscoverList({
  section,
  emptyHeading = 'h3',
}: {
  section: DiscoverSection;
  emptyHeading?: EmptyHeading;
}) {
  return (
    <EmptyHeadingContext.Provider value={emptyHeading}>
      {section === 'users' ? (
        <UsersList />
      ) : (
        <ChallengesList section={section} list={CHALLENGE_LIST[section]} />
      )}
    </EmptyHeadingContext.Provider>
  );
}

function ChallengesList({
  section,
  list,
}: {
  section: DiscoverSection;
  list: DiscoverChallengesList;
}) {
  const { t } = useTranslation();
  const { isLoggedIn, loading: userLoading } = useGetCurrentUser();
  const { openModal } = useModalRoute();
  const [page, setPage] = useState(1);
  const needsLogin = list === 'following' && !isLoggedIn;
  const state = useDiscoverChallenges(list, page, { skip: needsLogin || userLoading });
  if (needsLogin && !userLoading) {
    return (
      <Empty title={t('discover.following.loginTitle')} text={t('discover.following.loginText')}>
        <Button variant="action-gradient" onClick={() => openModal('login-magic-link')}>
          {t('auth.required.button')}
        </Button>
      </Empty>
    );
  }
  return (
    <PagedList
      state={state}
      page={page}
      onPage={setPage}
      label={t(`discover.${section}.title`)}
      empty={
        <Empty
          title={t(`discover.${section}.emptyTitle`)}
          text={t(`discover.${section}.emptyText`)}
        >
          <ButtonLink to="/challenge/create/step-1" variant="action-gradient">
            {t('challenge.startOne')}
          </ButtonLink>
        </Empty>
      }
    >
      {(items) =>
        items.map((challenge) => <PublicChallengeCard key={challenge.id} challenge={challenge} />)
      }
    </PagedList>
  );
}

function UsersList() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const state = useDiscoverUsers(page);
  return (
    <PagedList
      state={state}
      page={page}
      onPage={setPage}
      label={t('discover.users.title')}
      empty={
        <Empty title={t('discover.users.emptyTitle')} text={t('discover.users.emptyText')}>
          <ButtonLink to="/challenge/create/step-1" variant="action-gradient">
            {t('challenge.startOne')}
          </ButtonLink>
        </Empty>
      }
    >
      {(items) =>
        items.map((user) => (
          <li key={user.id} className={challengeStyles.card}>
            <Avatar name={nameOf(user)} src={user.avatar} size="md" />
            <div className={challengeStyles.cardBody}>
              <Link
                className={challengeStyles.cardTitle}
                to={`/profile/${encodeURIComponent(user.username)}`}
              >
                {nameOf(user)}
              </Link>
              <span className={challengeStyles.cardMeta}>@{user.username}</span>
            </div>
          </li>
        ))
      }
    </PagedList>
  );
}

function PagedList<T>({
  state,
  page,
  onPage,
  label,
  empty,
  children,
}: {
  state: DiscoverListState<T>;
  page: number;
  onPage: (page: number) => void;
  label: string;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  const { t } = useTranslation();
  // Apollo hands over an answer in a render React may not interrupt; the page of cards renders
  // after it, as a transition, in slices (docs/adr/0101).
  const items = useDeferredValue(state.items);
  if (state.items === null && (state.failure || state.requestFailed)) {
    return <LoadFailed failure={state.failure} onRetry={state.refetch} />;
  }
  if (items === null) return <PageLoader />;
  if (items.length === 0 && page === 1) return <>{empty}</>;
  return (
    <div className={styles.list} aria-busy={state.loading}>
      <ul className={challengeStyles.list} aria-label={label}>
        {children(items)}
      </ul>
      <Pager
        page={page}
        totalPages={state.totalPages}
        onPage={onPage}
        disabled={state.loading}
        label={t('discover.pages', { list: label })}
      />
    </div>
  );
}

type EmptyHeading = 'h2' | 'h3';
const EmptyHeadingContext = createContext<EmptyHeading>('h3');

function Empty({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  const Heading = useContext(EmptyHeadingContext);
  return (
    <div className={challengeStyles.empty}>
      <Heading className={layout.panelTitle}>{title}</Heading>
      <p className={challengeStyles.emptyText}>{text}</p>
      {children}
    </div>
  );
}

function LoadFailed({ failure, onRetry }: { failure: ResponseStatus | null; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={layout.alert} role="alert">
      <AlertIcon size={20} />
      <div className={layout.alertBody}>
        <p>{t('discover.loadFailed')}</p>
        {failure ? <p>{errorText(t, failure.identifier, failure.message)}</p> : null}
        <div>
          <Button variant="secondary" size="sm" onClick={onRetry}>
            {t('challenge.retry')}
          </Button>
        </div>
      </div>
    </div>
  );
}
