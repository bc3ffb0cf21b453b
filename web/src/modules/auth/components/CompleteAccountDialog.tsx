import { useId, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatCalendarDate, today } from '../../../lib/dates';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { AlertIcon, MailIcon } from '../../../ui/icons';
import { InfoTooltip } from '../../../ui/InfoTooltip';
import { Input } from '../../../ui/Input';
import { Modal } from '../../../ui/Modal';
import { PasswordInput } from '../../../ui/PasswordInput';
import { useToasts } from '../../../ui/toast/Toasts';
import { useFocusFirstInvalid } from '../../../ui/useFocusFirstInvalid';
import {
  COMPLETE_ACCOUNT_FIELDS,
  EMPTY_COMPLETE_ACCOUNT,
  validateCompleteAccount,
  type CompleteAccountField,
  type CompleteAccountValues,
} from '../completeAccountForm';
import {
  createChallengeEntryPath,
  type CreateChallengeWelcome,
} from '../../challenge/hooks/useChallengeDraft';
import { useLogoutUser } from '../hooks/useLogoutUser';
import { useModalRoute } from '../hooks/useModalRoute';
import { useVerifyingUser } from '../hooks/useVerifyingUser';
import { useVerifyUser } from '../hooks/useVerifyUser';
import type { VerifyingUser } from './VerifyingUserProvider';
import styles from './AuthDialogs.module.css';

/** Where a new account starts: the details of a first challenge. */

/** Once these have all been visited, every remaining problem is listed, the terms included. */
const TEXT_FIELDS: readonly CompleteAccountField[] = [
  'username',
  'birthday',
  'password',
  'repeatPassword',
];

/**
 * Sign-up completion: username, birthday, password, terms. Open while a sign-up is in progress
 * (the inbox was proven by code or link) or when the URL asks for it; cancelling forgets the
 * sign-up in progress.
 */
export function CompleteAccountDialog({ open }: { open: boolean }) {
  const { t } = useTranslation();
  const { verifying, setVerifying } = useVerifyingUser();
  const { closeModal } = useModalRoute();
  const cancel = () => {
    setVerifying(null);
    closeModal();
  };
  return (
    <Modal
      open={open}
      onClose={cancel}
      size="md"
      persistent
      title={t('auth.completeAccount.title')}
    >
      {verifying ? (
        <CompleteAccountForm verifying={verifying} onCancel={cancel} />
      ) : (
        <NoSignUpInProgress onClose={cancel} />
      )}
    </Modal>
  );
}

/** Reached by URL without a proven inbox (e.g. after a reload): start with the e-mail address. */
function NoSignUpInProgress({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { switchModal } = useModalRoute();
  return (
    <div className={styles.form}>
      <p className={styles.lead}>{t('auth.completeAccount.noSignUp')}</p>
      <Button
        variant="action-gradient"
        size="lg"
        block
        iconStart={<MailIcon size={20} />}
        onClick={() => switchModal('login-magic-link')}
      >
        {t('auth.completeAccount.startWithEmail')}
      </Button>
      <Button variant="secondary" block onClick={onClose}>
        {t('auth.completeAccount.close')}
      </Button>
    </div>
  );
}

function CompleteAccountForm({
  verifying,
  onCancel,
}: {
  verifying: VerifyingUser;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const toasts = useToasts();
  const formId = useId();
  const { setVerifying } = useVerifyingUser();
  const { switchModal } = useModalRoute();
  const { logout } = useLogoutUser();
  const { verifyUser, loading } = useVerifyUser();
  const [values, setValues] = useState<CompleteAccountValues>(EMPTY_COMPLETE_ACCOUNT);
  // A field is touched once it was changed and left (or ticked): typing is not yet a mistake,
  // and neither is passing through an empty field. Sending shows every problem.
  const [touched, setTouched] = useState<ReadonlySet<CompleteAccountField>>(new Set());
  const [edited, setEdited] = useState<ReadonlySet<CompleteAccountField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const now = today();
  const verdict = validateCompleteAccount(values, now);
  const showAll = submitted || TEXT_FIELDS.every((field) => touched.has(field));
  const visibleError = (field: CompleteAccountField) =>
    touched.has(field) || showAll ? verdict.errors[field] : undefined;
  const listed = COMPLETE_ACCOUNT_FIELDS.flatMap((field) => {
    const key = visibleError(field);
    return key ? [{ field, key }] : [];
  });
  /** The reason under the field itself (the red list below repeats them all, as the spec asks). */
  const errorMessage = (field: CompleteAccountField) => {
    const key = visibleError(field);
    return key ? t(`auth.completeAccount.errors.${key}`) : undefined;
  };
  const status = (field: CompleteAccountField) => (visibleError(field) ? 'error' : 'none');

  const touch = (field: CompleteAccountField) =>
    setTouched((previous) => (previous.has(field) ? previous : new Set(previous).add(field)));
  /** Leaving a field: touched when it was changed. */
  const leave = (field: CompleteAccountField) => {
    if (edited.has(field)) touch(field);
  };
  const change = <K extends CompleteAccountField>(field: K, value: CompleteAccountValues[K]) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setEdited((previous) => (previous.has(field) ? previous : new Set(previous).add(field)));
  };

  // Submit is never disabled (a disabled button says nothing of why): sending too early lists
  // every problem and takes focus to the first field at fault (docs/adr/0084).
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (!verdict.valid) return focusFirstInvalid();
    if (loading) return;
    const proof =
      verifying.type === 'code'
        ? { code: verifying.code }
        : { hash: verifying.hash, expires: verifying.expires };
    const outcome = await verifyUser({
      email: verifying.email,
      ...proof,
      username: values.username.trim(),
      password: values.password,
      repeatPassword: values.repeatPassword,
      birthday: values.birthday,
      phoneNumber: values.phoneNumber.trim() === '' ? null : values.phoneNumber.trim(),
      eighteenPlusContent: verdict.eighteenPlusContent,
      acceptTerms: values.acceptTerms,
    });
    if (outcome.kind === 'created') {
      setVerifying(null);
      // Straight to the create form, greeted (the spec's step 2 once step 1 was drafted).
      const username = values.username.trim();
      const state: CreateChallengeWelcome = { welcome: { username } };
      await navigate(createChallengeEntryPath(username), { state });
    } else if (outcome.kind === 'expired') {
      // The proof is gone: end whatever session there is and start over from the e-mail.
      await logout({ redirectTo: null, announce: false });
      toasts.error(t('errors.expired_credentials'));
      switchModal('login-magic-link');
    }
  };

  return (
    <form
      ref={formRef}
      className={styles.form}
      onSubmit={submit}
      noValidate
      aria-describedby={`${formId}-lead`}
    >
      <p id={`${formId}-lead`} className={styles.lead}>
        <Trans
          i18nKey="auth.completeAccount.lead"
          values={{ email: verifying.email }}
          components={{ email: <span className="break-anywhere" /> }}
        />
      </p>
      <Input
        label={t('auth.fields.username')}
        labelAction={
          <InfoTooltip id={`${formId}-username-tip`} label={t('auth.completeAccount.usernameInfo')}>
            {t('auth.completeAccount.usernameTooltip')}
          </InfoTooltip>
        }
        name="username"
        autoComplete="username"
        autoCapitalize="off"
        spellCheck={false}
        autoFocus
        required
        maxLength={30}
        value={values.username}
        onChange={(event) => change('username', event.target.value)}
        onBlur={() => leave('username')}
        status={status('username')}
        message={errorMessage('username')}
        aria-describedby={`${formId}-username-tip`}
      />
      <Input
        label={t('auth.completeAccount.birthday')}
        type="date"
        name="birthday"
        autoComplete="bday"
        required
        max={formatCalendarDate(now)}
        value={values.birthday}
        onChange={(event) => change('birthday', event.target.value)}
        onBlur={() => leave('birthday')}
        status={visibleError('birthday') ? 'error' : 'hint'}
        message={errorMessage('birthday') ?? t('auth.completeAccount.birthdayHint')}
      />
      <PasswordInput
        label={t('auth.fields.password')}
        name="new-password"
        autoComplete="new-password"
        required
        value={values.password}
        onChange={(event) => change('password', event.target.value)}
        onBlur={() => leave('password')}
        status={visibleError('password') ? 'error' : 'hint'}
        message={errorMessage('password') ?? t('auth.completeAccount.passwordHint')}
      />
      <PasswordInput
        label={t('auth.completeAccount.repeatPassword')}
        name="repeat-password"
        autoComplete="new-password"
        required
        value={values.repeatPassword}
        onChange={(event) => change('repeatPassword', event.target.value)}
        onBlur={() => leave('repeatPassword')}
        status={status('repeatPassword')}
        message={errorMessage('repeatPassword')}
      />
      <Input
        label={t('auth.completeAccount.phoneNumber')}
        type="tel"
        name="phone"
        autoComplete="tel"
        inputMode="tel"
        value={values.phoneNumber}
        onChange={(event) => change('phoneNumber', event.target.value)}
        onBlur={() => leave('phoneNumber')}
        status={status('phoneNumber')}
        message={errorMessage('phoneNumber')}
        placeholder={t('auth.completeAccount.phoneNumberPlaceholder')}
      />
      <Checkbox
        label={
          <Trans
            i18nKey="auth.completeAccount.acceptTerms"
            components={{
              terms: <Link to="/terms" target="_blank" rel="noopener noreferrer" />,
              newTab: <span className="visually-hidden" />,
            }}
          />
        }
        name="acceptTerms"
        checked={values.acceptTerms}
        onChange={(event) => {
          change('acceptTerms', event.target.checked);
          touch('acceptTerms');
        }}
        status={status('acceptTerms')}
        message={errorMessage('acceptTerms')}
      />

      {listed.length > 0 ? (
        <div className={styles.errorSummary}>
          <p className={styles.errorSummaryTitle}>
            <AlertIcon size={18} />
            <span>{t('auth.completeAccount.errorsTitle')}</span>
          </p>
          <ul className={styles.errorList} aria-label={t('auth.completeAccount.errorsTitle')}>
            {listed.map(({ field, key }) => (
              <li key={field}>{t(`auth.completeAccount.errors.${key}`)}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <div className={styles.actions}>
        <Button variant="secondary" onClick={onCancel}>
          {t('auth.completeAccount.cancel')}
        </Button>
        <Button type="submit" variant="action-gradient" loading={loading}>
          {t('auth.completeAccount.submit')}
        </Button>
      </div>
    </form>
  );
}
