import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { usePageMeta } from '../../../lib/usePageMeta';
import { VideoIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';

export function ChallengeDetailPage() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  usePageMeta(t('pages.challengeDetail.title'));
  return (
    <PagePlaceholder
      icon={<VideoIcon size={28} />}
      title={t('pages.challengeDetail.title')}
      description={t('pages.challengeDetail.description', { slug })}
    />
  );
}
