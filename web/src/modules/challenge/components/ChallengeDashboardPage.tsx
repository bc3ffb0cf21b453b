import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { cx } from '../../../lib/cx';
import { usePageMeta } from '../../../lib/usePageMeta';
import { DashboardIcon } from '../../../ui/icons';
import { PageHeader } from '../../../ui/PageHeader';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import tabStyles from '../../../ui/Tabs.module.css';
import { ActivityLog } from '../../notifications/components/ActivityLog';

const TABS = ['challenges', 'activity'] as const;
type DashboardTab = (typeof TABS)[number];

/** /challenge-dashboard: the tabs challenges (ongoing, requests) and activity (`?tab=activity`). */
export function ChallengeDashboardPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.dashboard.title'));
  const [params] = useSearchParams();
  const tab: DashboardTab = params.get('tab') === 'activity' ? 'activity' : 'challenges';
  return (
    <div>
      <PageHeader title={t('pages.dashboard.title')} />
      <nav aria-label={t('notifications.dashboard.tabsLabel')} className={tabStyles.tabs}>
        <ul className={tabStyles.list}>
          {TABS.map((name) => (
            <li key={name}>
              <Link
                to={name === 'challenges' ? '?' : `?tab=${name}`}
                aria-current={tab === name ? 'page' : undefined}
                className={cx(tabStyles.tab, tab === name && tabStyles.active)}
              >
                {t(`notifications.dashboard.tabs.${name}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {tab === 'activity' ? (
        <ActivityLog />
      ) : (
        <PagePlaceholder
          as="h2"
          icon={<DashboardIcon size={28} />}
          title={t('notifications.dashboard.tabs.challenges')}
          description={t('pages.dashboard.description')}
        />
      )}
    </div>
  );
}
