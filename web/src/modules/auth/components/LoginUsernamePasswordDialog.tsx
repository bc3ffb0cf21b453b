import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../ui/Button';
import { Input } from '../../../ui/Input';
import { Modal } from '../../../ui/Modal';
import { PasswordInput } from '../../../ui/PasswordInput';
import { useFocusFirstInvalid } from '../../../ui/useFocusFirstInvalid';
import { useLoginWithPassword } from '../hooks/useLoginWithPassword';
import { useModalRoute } from '../hooks/useModalRoute';
import styles from './AuthDialogs.module.css';

export function LoginUsernamePasswordDialog({ open }: { open: boolean }) {
  const { t } = useTranslation();
  const { closeModal } = useModalRoute();
  return (
    <Modal open={open} onClose={closeModal} size="sm" title={t('auth.password.title')}>
      <PasswordLoginForm />
    </Modal>
  );
}

function PasswordLoginForm() {
  const { t } = useTranslation();
  const { closeModal, switchModal } = useModalRoute();
  const { login, loading } = useLoginWithPassword();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  /** The server's refusal: on the password field when the credentials are wrong, else above. */
  const [failure, setFailure] = useState<{ text: string; credentials: boolean } | null>(null);
  const { ref, focusFirstInvalid } = useFocusFirstInvalid();

  const complete = username.trim() !== '' && password !== '';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (!complete) return focusFirstInvalid();
    if (loading) return;
    setFailure(null);
    const result = await login(username, password);
    if (result.ok) return closeModal();
    if (result.text === null) return;
    setFailure(result);
    if (result.credentials) focusFirstInvalid();
  };

  const required = (value: string) =>
    submitted && value.trim() === '' ? t('validation.required') : null;
  const passwordError = required(password) ?? (failure?.credentials ? failure.text : null);

  return (
    <form ref={ref} className={styles.form} onSubmit={submit} noValidate>
      <Input
        label={t('auth.fields.usernameOrEmail')}
        name="username"
        autoComplete="username"
        autoCapitalize="off"
        autoFocus
        required
        value={username}
        onChange={(event) => {
          setUsername(event.target.value);
          setFailure(null);
        }}
        status={required(username) ? 'error' : 'none'}
        message={required(username)}
      />
      <PasswordInput
        label={t('auth.fields.password')}
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          setFailure(null);
        }}
        status={passwordError ? 'error' : 'none'}
        message={passwordError}
      />
      {failure && !failure.credentials ? (
        <p role="alert" className={styles.formError}>
          {failure.text}
        </p>
      ) : null}
      <Link className={styles.smallLink} to="/login/recover/request">
        {t('auth.password.forgot')}
      </Link>
      <Button type="submit" variant="action-gradient" size="lg" block loading={loading}>
        {t('auth.password.submit')}
      </Button>
      <div className={styles.divider}>
        <span>{t('auth.or')}</span>
      </div>
      <Button variant="secondary" block onClick={() => switchModal('login-magic-link')}>
        {t('auth.password.switchToMagicLink')}
      </Button>
    </form>
  );
}
