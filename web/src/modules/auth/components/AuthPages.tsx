import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button } from '../../../ui/Button';
import { LockIcon, MailIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import { useModalRoute } from '../hooks/useModalRoute';

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

export function RecoverRequestPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.recoverRequest.title'), t('pages.recoverRequest.metaDescription'));
  return (
    <PagePlaceholder
      icon={<MailIcon size={28} />}
      title={t('pages.recoverRequest.title')}
      description={t('pages.recoverRequest.description')}
    />
  );
}

export function RecoverResetPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.recoverReset.title'));
  return (
    <PagePlaceholder
      icon={<LockIcon size={28} />}
      title={t('pages.recoverReset.title')}
      description={t('pages.recoverReset.description')}
    />
  );
}

export function MagicLinkVerifyPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.magicLinkVerify.title'));
  return (
    <PagePlaceholder
      icon={<MailIcon size={28} />}
      title={t('pages.magicLinkVerify.title')}
      description={t('pages.magicLinkVerify.description')}
    />
  );
}
