import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { cx } from '../../../lib/cx';
import { errorText } from '../../../lib/errorMessages';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button, ButtonLink } from '../../../ui/Button';
import { AlertIcon, PlusIcon } from '../../../ui/icons';
import layout from '../../../ui/layout.module.css';
import { PageHeader } from '../../../ui/PageHeader';
import { PageLoader } from '../../../ui/PageLoader';
import tabStyles from '../../../ui/Tabs.module.css';
import { useScrollSelectedIntoView } from '../../../ui/useScrollSelectedIntoView';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { ActivityLog } from '../../notifications/components/ActivityLog';
import type { ChallengeSummary } from '../graphql/fragments';
import { useGetDashboardChallenges } from '../hooks/useGetDashboardChallenges';
import { ChallengeCard } from './ChallengeCard';
import { CompletedChallenges } from './CompletedChallenges';
import styles from './Challenge.module.css';

const TABS = ['ongoing', 'requests', 'completed', 'activity'] as const;
type DashboardTab = (typeof TABS)[number];

function tabOf(value: string | null): DashboardTab {
  return value === 'requests' || value === 'completed' || value === 'activity' ? value : 'ongoing';
}

/**
 * /challenge-dashboard: the tabs ongoing and requests (getDashboardChallenges), completed (the
 * user's completed challenges) and activity (`?tab=requests`, `?tab=completed`, `?tab=activity`;
 * ongoing is the default).
 */
export function ChallengeDashboardPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.dashboard.title'));
  const [params] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  // Four tabs overflow a phone in Dutch: the chosen one is scrolled into view.
  const strip = useRef<HTMLElement>(null);
  useScrollSelectedIntoView(strip, tab);
  const dashboard = useGetDashboardChallenges();
  const { user } = useGetCurrentUser();
  const counts: Partial<Record<DashboardTab, number>> = dashboard.running
    ? { ongoing: dashboard.runningCount, requests: dashboard.requestsCount }
    : {};
  return (
    <div className={styles.page}>
      <PageHeader
        title={t('pages.dashboard.title')}
        actions={
          <ButtonLink
            to="/challenge/create/step-1"
            variant="action-gradient"
            size="sm"
            iconStart={<PlusIcon size={16} />}
          >
            {t('challenge.startOne')}
          </ButtonLink>
        }
      />
      <nav
        aria-label={t('notifications.dashboard.tabsLabel')}
        className={tabStyles.tabs}
        ref={strip}
        data-tab-strip
      >
        <ul className={tabStyles.list}>
          {TABS.map((name) => (
            <li key={name}>
              <Link
                to={name === 'ongoing' ? '?' : `?tab=${name}`}
                aria-current={tab === name ? 'page' : undefined}
                className={cx(tabStyles.tab, tab === name && tabStyles.active)}
              >
                {t(`notifications.dashboard.tabs.${name}`)}
                {counts[name] ? (
                  <span className={styles.count} aria-hidden="true">
                    {counts[name]}
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {tab === 'activity' ? (
        <ActivityLog />
      ) : tab === 'completed' ? (
        user ? (
          <CompletedChallenges username={user.username} />
        ) : (
          <PageLoader />
        )
      ) : (
        <ChallengeList tab={tab} dashboard={dashboard} />
      )}
    </div>
  );
}

function ChallengeList({
  tab,
  dashboard,
}: {
  tab: 'ongoing' | 'requests';
  dashboard: ReturnType<typeof useGetDashboardChallenges>;
}) {
  const { t } = useTranslation();
  const { user } = useGetCurrentUser();
  if (dashboard.loading) return <PageLoader />;
  const list: ChallengeSummary[] | null =
    tab === 'ongoing' ? dashboard.running : dashboard.requests;
  if (!list) {
    return (
      <div className={layout.alert} role="alert">
        <AlertIcon size={20} />
        <div className={layout.alertBody}>
          <p>{t('challenge.dashboard.loadFailed')}</p>
          {dashboard.failure ? (
            <p>{errorText(t, dashboard.failure.identifier, dashboard.failure.message)}</p>
          ) : null}
          <div>
            <Button variant="secondary" size="sm" onClick={dashboard.refetch}>
              {t('challenge.retry')}
            </Button>
          </div>
        </div>
      </div>
    );
  }
  if (list.length === 0) {
    return (
      <div className={styles.empty}>
        <h2 className={layout.panelTitle}>{t(`challenge.dashboard.${tab}EmptyTitle`)}</h2>
        <p className={styles.emptyText}>{t(`challenge.dashboard.${tab}EmptyText`)}</p>
        <ButtonLink to="/challenge/create/step-1" variant="action-gradient">
          {t('challenge.startOne')}
        </ButtonLink>
      </div>
    );
  }
  return (
    <ul className={styles.list} aria-label={t(`notifications.dashboard.tabs.${tab}`)}>
      {list.map((challenge) => (
        <ChallengeCard key={challenge.id} challenge={challenge} viewerId={user?.id ?? null} />
      ))}
    </ul>
  );
}
