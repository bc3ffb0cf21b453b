import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../ui/Button';
import { Input } from '../../../ui/Input';
import { Modal } from '../../../ui/Modal';
import { PasswordInput } from '../../../ui/PasswordInput';
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

  const complete = username.trim() !== '' && password !== '';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (!complete || loading) return;
    if (await login(username, password)) closeModal();
  };

  const required = (value: string) =>
    submitted && value.trim() === '' ? t('validation.required') : null;

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <Input
        label={t('auth.fields.username')}
        name="username"
        autoComplete="username"
        autoCapitalize="off"
        autoFocus
        required
        value={username}
        onChange={(event) => setUsername(event.target.value)}
        status={required(username) ? 'error' : 'none'}
        message={required(username)}
      />
      <PasswordInput
        label={t('auth.fields.password')}
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        status={required(password) ? 'error' : 'none'}
        message={required(password)}
      />
      <Link className={styles.smallLink} to="/login/recover/request">
        {t('auth.password.forgot')}
      </Link>
      <Button
        type="submit"
        variant="action-gradient"
        size="lg"
        block
        disabled={!complete}
        loading={loading}
      >
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
