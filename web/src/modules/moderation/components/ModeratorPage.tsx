import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/usePageMeta';
import { ShieldIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';

export function ModeratorPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.moderator.title'));
  return (
    <PagePlaceholder
      icon={<ShieldIcon size={28} />}
      title={t('pages.moderator.title')}
      description={t('pages.moderator.description')}
    />
  );
}
