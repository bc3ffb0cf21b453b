import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button } from '../../../ui/Button';
import { LockIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import { useModalRoute } from '../hooks/useModalRoute';

// The login pages form one lazily loaded chunk (see app/routes.tsx).
export { MagicLinkVerifyPage } from './MagicLinkVerifyPage';
export { RecoverRequestPage } from './RecoverRequestPage';
export { RecoverResetPage } from './RecoverResetPage';

/** /login: a landing spot that opens the login dialog. */
export function LoginPage() {
  const { t } = useTranslation();
  const { openModal } = useModalRoute();
  usePageMeta(t('pages.login.title'));
  return (
    <PagePlaceholder
      icon={<LockIcon size={28} />}
      title={t('pages.login.title')}
      description={t('pages.login.description')}
    >
      <Button variant="action-gradient" onClick={() => openModal('login-magic-link')}>
        {t('pages.login.button')}
      </Button>
    </PagePlaceholder>
  );
}
