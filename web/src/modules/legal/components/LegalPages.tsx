import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/usePageMeta';
import { ShieldIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';

export function TermsPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.terms.title'), t('pages.terms.metaDescription'));
  return (
    <PagePlaceholder
      icon={<ShieldIcon size={28} />}
      title={t('pages.terms.title')}
      description={t('pages.terms.description')}
    />
  );
}

export function CookiesPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.cookies.title'));
  return (
    <PagePlaceholder
      icon={<ShieldIcon size={28} />}
      title={t('pages.cookies.title')}
      description={t('pages.cookies.description')}
    />
  );
}
