import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button } from '../../../ui/Button';
import { LockIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import { useModalRoute } from '../hooks/useModalRoute';

/** Shown in place of a logged-in-only page; logging in from here keeps the user on this page. */
export function LoginRequired() {
  const { t } = useTranslation();
  const { openModal } = useModalRoute();
  usePageMeta(t('auth.required.title'));
  return (
    <PagePlaceholder
      icon={<LockIcon size={28} />}
      title={t('auth.required.title')}
      description={t('auth.required.description')}
    >
      <Button variant="action-gradient" onClick={() => openModal('login-magic-link')}>
        {t('auth.required.button')}
      </Button>
    </PagePlaceholder>
  );
}
