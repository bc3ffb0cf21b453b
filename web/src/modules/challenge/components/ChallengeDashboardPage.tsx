import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/usePageMeta';
import { DashboardIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';

export function ChallengeDashboardPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.dashboard.title'));
  return (
    <PagePlaceholder
      icon={<DashboardIcon size={28} />}
      title={t('pages.dashboard.title')}
      description={t('pages.dashboard.description')}
    />
  );
}
