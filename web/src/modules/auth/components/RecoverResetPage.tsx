import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { describeFailure } from '../../../lib/mutationOutcome';
import { usePageMeta } from '../../../lib/usePageMeta';
import { meetsPasswordRules } from '../../../lib/validation';
import { Button, ButtonLink } from '../../../ui/Button';
import { AlertIcon, CheckIcon, LockIcon } from '../../../ui/icons';
import { PasswordInput } from '../../../ui/PasswordInput';
import { useToasts } from '../../../ui/toast/Toasts';
import { MODAL_PARAM } from '../hooks/useModalRoute';
import { useResetForgottenPassword } from '../hooks/useResetForgottenPassword';
import { AuthCard, AuthFormSubmit } from './AuthCard';
import styles from './AuthPage.module.css';

type DeadLink = 'expired_credentials' | 'invalid_credentials' | 'missing_token';

/** /login/recover/reset?token=: choose a new password with the link from the reset e-mail. */
export function RecoverResetPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.recoverReset.title'));
  const [params, setParams] = useSearchParams();
  const toasts = useToasts();
  const { resetForgottenPassword, loading } = useResetForgottenPassword();
  const [token] = useState(() => params.get('token')?.trim() ?? '');
  const [password, setPassword] = useState('');
  const [repeatPassword, setRepeatPassword] = useState('');
  const [touched, setTouched] = useState({ password: false, repeatPassword: false });
  const [done, setDone] = useState(false);
  const [deadLink, setDeadLink] = useState<DeadLink | null>(token ? null : 'missing_token');
  const [failure, setFailure] = useState<string | null>(null);

  const passwordError =
    password === ''
      ? t('validation.required')
      : meetsPasswordRules(password)
        ? null
        : t('auth.completeAccount.errors.passwordRules');
  const repeatError =
    repeatPassword === ''
      ? t('validation.required')
      : repeatPassword === password
        ? null
        : t('auth.completeAccount.errors.passwordsMismatch');
  const valid = !passwordError && !repeatError;

  const openLogin = () =>
    setParams(new URLSearchParams({ [MODAL_PARAM]: 'login-username-password' }), {
      replace: true,
    });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ password: true, repeatPassword: true });
    if (!valid || loading) return;
    setFailure(null);
    const outcome = await resetForgottenPassword({ token, password, repeatPassword });
    if (outcome.kind === 'reset') {
      setDone(true);
      toasts.success(t('auth.reset.doneToast'));
      // The token is spent: drop it from the URL and offer the login dialog straight away.
      openLogin();
    } else if (
      outcome.identifier === 'expired_credentials' ||
      outcome.identifier === 'invalid_credentials'
    ) {
      setDeadLink(outcome.identifier);
    } else {
      setFailure(describeFailure(t, outcome.failure));
    }
  };

  if (done) {
    return (
      <AuthCard
        centered
        role="status"
        tone="success"
        icon={<CheckIcon size={28} />}
        title={t('auth.reset.doneTitle')}
        text={t('auth.reset.doneText')}
      >
        <Button variant="action-gradient" onClick={openLogin}>
          {t('auth.reset.logIn')}
        </Button>
      </AuthCard>
    );
  }

  if (deadLink) {
    return (
      <AuthCard
        centered
        role={deadLink === 'missing_token' ? undefined : 'alert'}
        tone="error"
        icon={<AlertIcon size={28} />}
        title={t(`auth.reset.deadLink.${deadLink}.title`)}
        text={t(`auth.reset.deadLink.${deadLink}.text`)}
      >
        <ButtonLink to="/login/recover/request" variant="action-gradient">
          {t('auth.reset.requestNew')}
        </ButtonLink>
      </AuthCard>
    );
  }

  const shown = (field: 'password' | 'repeatPassword', error: string | null) =>
    touched[field] ? error : null;

  return (
    <AuthCard
      icon={<LockIcon size={28} />}
      title={t('pages.recoverReset.title')}
      titleId="recover-reset-title"
      text={t('auth.reset.text')}
    >
      <form
        className={styles.form}
        onSubmit={submit}
        noValidate
        aria-labelledby="recover-reset-title"
      >
        <PasswordInput
          label={t('auth.reset.newPassword')}
          name="new-password"
          autoComplete="new-password"
          autoFocus
          required
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            setTouched((previous) => ({ ...previous, password: true }));
          }}
          status={shown('password', passwordError) ? 'error' : 'hint'}
          message={shown('password', passwordError) ?? t('auth.completeAccount.passwordHint')}
        />
        <PasswordInput
          label={t('auth.completeAccount.repeatPassword')}
          name="repeat-password"
          autoComplete="new-password"
          required
          value={repeatPassword}
          onChange={(event) => {
            setRepeatPassword(event.target.value);
            setTouched((previous) => ({ ...previous, repeatPassword: true }));
          }}
          status={shown('repeatPassword', repeatError) ? 'error' : 'none'}
          message={shown('repeatPassword', repeatError)}
        />
        <AuthFormSubmit failure={failure} disabled={!valid} loading={loading}>
          {t('auth.reset.submit')}
        </AuthFormSubmit>
      </form>
    </AuthCard>
  );
}
