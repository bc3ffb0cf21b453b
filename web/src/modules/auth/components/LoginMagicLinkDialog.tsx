import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { isValidEmail } from '../../../lib/validation';
import { Button } from '../../../ui/Button';
import { Input } from '../../../ui/Input';
import { MailIcon } from '../../../ui/icons';
import { Modal } from '../../../ui/Modal';
import { useFocusFirstInvalid } from '../../../ui/useFocusFirstInvalid';
import { originUrlFor, safeInternalPath } from '../safePath';
import { useModalRoute } from '../hooks/useModalRoute';
import { useRequestLoginLink } from '../hooks/useRequestLoginLink';
import { useVerifyingUser } from '../hooks/useVerifyingUser';
import { useVerifyLoginCode } from '../hooks/useVerifyLoginCode';
import styles from './AuthDialogs.module.css';
import { EmailField } from './EmailField';

export function LoginMagicLinkDialog({ open }: { open: boolean }) {
  const { t } = useTranslation();
  const { loginEmail, closeModal } = useModalRoute();
  return (
    <Modal
      open={open}
      onClose={closeModal}
      size="sm"
      title={loginEmail ? t('auth.magicLink.codeTitle') : t('auth.magicLink.title')}
    >
      {loginEmail ? <CodeStep email={loginEmail} /> : <EmailStep />}
    </Modal>
  );
}

function EmailStep() {
  const { t } = useTranslation();
  const location = useLocation();
  const { switchModal, setLoginEmail } = useModalRoute();
  const { requestLoginLink, loading } = useRequestLoginLink();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const { ref, focusFirstInvalid } = useFocusFirstInvalid();

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
    if (!valid) return focusFirstInvalid();
    if (loading) return;
    if (await requestLoginLink(email, originUrlFor(location.pathname))) {
      setLoginEmail(email.trim());
    }
  };

  return (
    <form ref={ref} className={styles.form} onSubmit={submit} noValidate>
      <p className={styles.lead}>{t('auth.magicLink.description')}</p>
      <EmailField
        value={email}
        onChange={setEmail}
        onBlur={() => setTouched(email !== '' || touched)}
        error={error}
      />
      {/* Not disabled while invalid: a disabled button swallows Enter and the click without
          a word; sending says what is wrong instead (docs/adr/0084). */}
      <Button type="submit" variant="action-gradient" size="lg" block loading={loading}>
        {t('auth.magicLink.submit')}
      </Button>
      <div className={styles.divider}>
        <span>{t('auth.or')}</span>
      </div>
      <Button variant="secondary" block onClick={() => switchModal('login-username-password')}>
        {t('auth.magicLink.switchToPassword')}
      </Button>
    </form>
  );
}

function CodeStep({ email }: { email: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const { closeModal, switchModal, setLoginEmail } = useModalRoute();
  const { setVerifying } = useVerifyingUser();
  const { verifyLoginCode, loading } = useVerifyLoginCode();
  const [code, setCode] = useState('');
  /** What is wrong with the code, on its field: missing, or what the server said of it. */
  const [error, setError] = useState<string | null>(null);
  const { ref, focusFirstInvalid } = useFocusFirstInvalid();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading) return;
    if (code.trim() === '') {
      setError(t('validation.required'));
      return focusFirstInvalid();
    }
    const outcome = await verifyLoginCode(email, code);
    if (outcome.kind === 'failed') {
      setError(outcome.text);
      if (outcome.text) focusFirstInvalid();
      return;
    }
    if (outcome.kind === 'needs-account') {
      // A new address: the code proves the inbox; the account form follows (code kept in memory).
      setVerifying({ type: 'code', email, code: code.trim() });
      switchModal('complete-account');
    } else if (outcome.kind === 'logged-in') {
      const target = safeInternalPath(outcome.originUrl);
      if (target && target !== location.pathname) await navigate(target, { replace: true });
      else closeModal();
    }
  };

  return (
    <form ref={ref} className={styles.form} onSubmit={submit} noValidate>
      <div className={styles.sent}>
        <span className={styles.sentIcon} aria-hidden="true">
          <MailIcon size={22} />
        </span>
        <p>
          <Trans
            i18nKey="auth.magicLink.sentTo"
            values={{ email }}
            components={{ email: <span className="break-anywhere" /> }}
          />
        </p>
      </div>
      <Input
        label={t('auth.fields.code')}
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        autoFocus
        required
        value={code}
        onChange={(event) => {
          setCode(event.target.value);
          setError(null);
        }}
        status={error ? 'error' : 'hint'}
        message={error ?? t('auth.magicLink.codeHint')}
      />
      <Button type="submit" variant="action-gradient" size="lg" block loading={loading}>
        {t('auth.magicLink.confirmCode')}
      </Button>
      <Button variant="tertiary" block onClick={() => setLoginEmail(null)}>
        {t('auth.magicLink.useOtherEmail')}
      </Button>
    </form>
  );
}
