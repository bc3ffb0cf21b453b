import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { describeFailure, failureIdentifier } from '../../../lib/mutationOutcome';
import { usePageMeta } from '../../../lib/usePageMeta';
import { meetsPasswordRules } from '../../../lib/validation';
import { Button } from '../../../ui/Button';
import { PasswordInput } from '../../../ui/PasswordInput';
import layout from '../../../ui/layout.module.css';
import { useToasts } from '../../../ui/toast/Toasts';
import { useChangePassword } from '../hooks/useChangePassword';
import styles from './Settings.module.css';

const EMPTY = { currentPassword: '', password: '', repeatPassword: '' };
type Field = keyof typeof EMPTY;

/** /settings/change-password: current password, then the new one twice (spec section 5 rules). */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  usePageMeta(`${t('settings.sections.change-password.title')} · ${t('settings.title')}`);
  const titleId = useId();
  const toasts = useToasts();
  const { changePassword, loading } = useChangePassword();
  const [values, setValues] = useState(EMPTY);
  const [touched, setTouched] = useState<Record<Field, boolean>>({
    currentPassword: false,
    password: false,
    repeatPassword: false,
  });
  const [wrongCurrent, setWrongCurrent] = useState(false);

  const errors: Record<Field, string | null> = {
    currentPassword:
      values.currentPassword === ''
        ? t('validation.required')
        : wrongCurrent
          ? t('settings.password.wrongCurrent')
          : null,
    password:
      values.password === ''
        ? t('validation.required')
        : meetsPasswordRules(values.password)
          ? null
          : t('auth.completeAccount.errors.passwordRules'),
    repeatPassword:
      values.repeatPassword === ''
        ? t('validation.required')
        : values.repeatPassword === values.password
          ? null
          : t('auth.completeAccount.errors.passwordsMismatch'),
  };
  const valid = !errors.currentPassword && !errors.password && !errors.repeatPassword;
  const shown = (field: Field) => (touched[field] ? errors[field] : null);
  const set = (field: Field, value: string) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setTouched((previous) => ({ ...previous, [field]: true }));
    if (field === 'currentPassword') setWrongCurrent(false);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ currentPassword: true, password: true, repeatPassword: true });
    if (!valid || loading) return;
    const outcome = await changePassword(values);
    if (outcome.ok) {
      toasts.success(t('settings.password.changed'));
      setValues(EMPTY);
      setTouched({ currentPassword: false, password: false, repeatPassword: false });
      return;
    }
    if (failureIdentifier(outcome) === 'invalid_credentials') {
      setWrongCurrent(true);
      return;
    }
    const text = describeFailure(t, outcome);
    if (text) toasts.error(text);
  };

  return (
    <div className={styles.sections}>
      <form className={layout.panelLarge} onSubmit={submit} noValidate aria-labelledby={titleId}>
        <div className={layout.panelHeader}>
          <h2 id={titleId} className={layout.panelTitle}>
            {t('settings.password.title')}
          </h2>
          <p className={layout.panelText}>{t('settings.password.text')}</p>
        </div>
        <PasswordInput
          label={t('settings.password.current')}
          name="current-password"
          autoComplete="current-password"
          required
          value={values.currentPassword}
          onChange={(event) => set('currentPassword', event.target.value)}
          onBlur={() => setTouched((previous) => ({ ...previous, currentPassword: true }))}
          status={shown('currentPassword') ? 'error' : 'none'}
          message={shown('currentPassword')}
        />
        <PasswordInput
          label={t('auth.reset.newPassword')}
          name="new-password"
          autoComplete="new-password"
          required
          value={values.password}
          onChange={(event) => set('password', event.target.value)}
          status={shown('password') ? 'error' : 'hint'}
          message={shown('password') ?? t('auth.completeAccount.passwordHint')}
        />
        <PasswordInput
          label={t('auth.completeAccount.repeatPassword')}
          name="repeat-password"
          autoComplete="new-password"
          required
          value={values.repeatPassword}
          onChange={(event) => set('repeatPassword', event.target.value)}
          status={shown('repeatPassword') ? 'error' : 'none'}
          message={shown('repeatPassword')}
        />
        <Link className={layout.panelText} to="/login/recover/request">
          {t('auth.password.forgot')}
        </Link>
        <div className={layout.formActions}>
          <Button type="submit" variant="primary" disabled={!valid} loading={loading}>
            {t('settings.password.submit')}
          </Button>
        </div>
      </form>
    </div>
  );
}
