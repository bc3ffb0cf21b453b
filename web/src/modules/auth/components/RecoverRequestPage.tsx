import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errorMessages';
import { usePageMeta } from '../../../lib/usePageMeta';
import { isValidEmail } from '../../../lib/validation';
import { Button, ButtonLink } from '../../../ui/Button';
import { LockIcon, MailIcon } from '../../../ui/icons';
import { useGetCurrentUser } from '../hooks/useGetCurrentUser';
import { useModalRoute } from '../hooks/useModalRoute';
import { useRequestForgotPasswordLink } from '../hooks/useRequestForgotPasswordLink';
import { AuthCard, AuthFormSubmit } from './AuthCard';
import styles from './AuthPage.module.css';
import { EmailField } from './EmailField';

/**
 * /login/recover/request: asks for a password reset link by e-mail. Open to all (spec section 2):
 * a logged-in person comes from the change-password page and is led back there, not to log in.
 */
export function RecoverRequestPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.recoverRequest.title'), t('pages.recoverRequest.metaDescription'));
  const { openModal } = useModalRoute();
  const { isLoggedIn } = useGetCurrentUser();
  const { requestForgotPasswordLink, loading } = useRequestForgotPasswordLink();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const valid = isValidEmail(email);
  const error = !touched
    ? null
    : email.trim() === ''
      ? t('validation.required')
      : valid
        ? null
        : t('validation.invalidEmail');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (!valid || loading) return;
    setRefusal(null);
    const outcome = await requestForgotPasswordLink(email);
    if (outcome.kind === 'answered') setSentTo(email.trim());
    else
      setRefusal(outcome.identifier ? errorText(t, outcome.identifier) : t('toast.networkError'));
  };

  if (sentTo) {
    // The same words whether or not the address has an account: nobody learns who is registered.
    return (
      <AuthCard
        centered
        role="status"
        tone="success"
        icon={<MailIcon size={28} />}
        title={t('auth.recover.sentTitle')}
        text={t('auth.recover.sentText', { email: sentTo })}
      >
        <div className={styles.actions}>
          {isLoggedIn ? (
            <ButtonLink to="/settings/change-password" variant="action-gradient">
              {t('auth.recover.backToChangePassword')}
            </ButtonLink>
          ) : (
            <Button variant="action-gradient" onClick={() => openModal('login-username-password')}>
              {t('auth.recover.backToLogin')}
            </Button>
          )}
          <Button
            variant="secondary"
            onClick={() => {
              setSentTo(null);
              setTouched(false);
            }}
          >
            {t('auth.recover.tryOtherEmail')}
          </Button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      icon={<LockIcon size={28} />}
      title={t('pages.recoverRequest.title')}
      titleId="recover-request-title"
      text={t('auth.recover.requestText')}
    >
      <form
        className={styles.form}
        onSubmit={submit}
        noValidate
        aria-labelledby="recover-request-title"
      >
        <EmailField
          value={email}
          onChange={setEmail}
          onBlur={() => setTouched(email !== '' || touched)}
          error={error}
        />
        <AuthFormSubmit failure={refusal} disabled={!valid} loading={loading}>
          {t('auth.recover.submit')}
        </AuthFormSubmit>
        {isLoggedIn ? (
          <ButtonLink to="/settings/change-password" variant="tertiary" block>
            {t('auth.recover.backToChangePassword')}
          </ButtonLink>
        ) : (
          <Button variant="tertiary" block onClick={() => openModal('login-username-password')}>
            {t('auth.recover.backToLogin')}
          </Button>
        )}
      </form>
    </AuthCard>
  );
}
