import type { TFunction } from 'i18next';
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { europeanCountryOptions, isEuropeanCountryCode } from '../../../lib/countries';
import {
  bicRequiredFor,
  compactBankCode,
  formatIban,
  ibanProblem,
  isBicShape,
} from '../../../lib/iban';
import { describeFailure } from '../../../lib/mutationOutcome';
import { usePageMeta } from '../../../lib/usePageMeta';
import { isValidPhoneNumber } from '../../../lib/validation';
import { Button, ButtonLink } from '../../../ui/Button';
import { Input } from '../../../ui/Input';
import { Modal } from '../../../ui/Modal';
import { Notice } from '../../../ui/Notice';
import { PageLoader } from '../../../ui/PageLoader';
import { PasswordInput } from '../../../ui/PasswordInput';
import { SelectField } from '../../../ui/SelectField';
import layout from '../../../ui/layout.module.css';
import { useToasts } from '../../../ui/toast/Toasts';
import type { PaymentProfile } from '../../wallet/graphql/ProfilePaymentInformation';
import type { PaymentProfileInput } from '../../wallet/graphql/UpdateProfilePaymentInformation';
import { useGetProfilePaymentInformation } from '../../wallet/hooks/useGetProfilePaymentInformation';
import { useUpdateProfilePaymentInformation } from '../../wallet/hooks/useUpdateProfilePaymentInformation';
import {
  isRequiredPaymentField,
  missingPaymentFields,
  PAYMENT_PROFILE_KEYS,
  type PaymentProfileKey,
} from '../../wallet/paymentProfile';
import { useReauthenticate } from '../hooks/useReauthenticate';
import { SettingsLoadFailure } from './SettingsLoadFailure';
import paymentStyles from './EditPaymentsPage.module.css';
import styles from './Settings.module.css';

type Values = Record<PaymentProfileKey, string>;

/** The stored profile as form values: empty strings for missing fields, the IBAN grouped by four. */
function toValues(profile: PaymentProfile): Values {
  const values = Object.fromEntries(
    PAYMENT_PROFILE_KEYS.map((key) => [key, profile[key] ?? '']),
  ) as Values;
  values.paymentAccountNumber = formatIban(values.paymentAccountNumber);
  return values;
}

/** What is sent: trimmed, IBAN and BIC upper case without spaces, no BIC as null. */
function toInput(values: Values): PaymentProfileInput {
  const trimmed = Object.fromEntries(
    PAYMENT_PROFILE_KEYS.map((key) => [key, values[key].trim()]),
  ) as PaymentProfileInput;
  return {
    ...trimmed,
    paymentAccountNumber: compactBankCode(values.paymentAccountNumber),
    paymentBic: compactBankCode(values.paymentBic) || null,
  };
}

/** /settings/edit-payments: where payouts go (bank account, address and phone number). */
export function EditPaymentsPage() {
  const { t } = useTranslation();
  usePageMeta(`${t('settings.sections.edit-payments.title')} · ${t('settings.title')}`);
  const { paymentProfile, failure, loading, refetch } = useGetProfilePaymentInformation();
  if (loading) return <PageLoader />;
  if (!paymentProfile) return <SettingsLoadFailure failure={failure} onRetry={refetch} />;
  return <PaymentProfileForm profile={paymentProfile} />;
}

function PaymentProfileForm({ profile }: { profile: PaymentProfile }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const ibanId = useId();
  const toasts = useToasts();
  const formRef = useRef<HTMLFormElement>(null);
  const { updateProfilePaymentInformation, loading: saving } = useUpdateProfilePaymentInformation();
  const [proof, setProof] = useState<string | null>(null);
  const [unlocking, setUnlocking] = useState(false);
  const loading = saving;
  const [saved, setSaved] = useState(() => toValues(profile));
  const [values, setValues] = useState(saved);
  const [touched, setTouched] = useState<Partial<Record<PaymentProfileKey, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<{ text: string; detail: string | null } | null>(
    null,
  );
  const [justCompleted, setJustCompleted] = useState(false);
  const countries = useMemo(() => europeanCountryOptions(i18n.language), [i18n.language]);

  // A saved IBAN is replaced only after the password (the server checks the proof): it is
  // asked up front, through "Change bank account", never after Save (issue 22, point 7).
  const hasSavedIban = saved.paymentAccountNumber.trim() !== '';
  const ibanLocked = hasSavedIban && proof === null;
  const replacesIban =
    hasSavedIban &&
    compactBankCode(values.paymentAccountNumber) !== compactBankCode(saved.paymentAccountNumber);
  const errors = validate(values, t);
  const dirty = PAYMENT_PROFILE_KEYS.some((key) => values[key].trim() !== saved[key].trim());
  const wasIncomplete = missingPaymentFields(profile).length > 0;
  const shown = (key: PaymentProfileKey) => (submitted || touched[key] ? errors[key] : undefined);

  const field = (key: PaymentProfileKey) => ({
    name: key,
    value: values[key],
    onChange: (event: { target: { value: string } }) => {
      setValues((previous) => ({ ...previous, [key]: event.target.value }));
      setServerError(null);
    },
    onBlur: () => setTouched((previous) => ({ ...previous, [key]: true })),
    status: shown(key) ? ('error' as const) : ('none' as const),
    message: shown(key),
    required: true,
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const invalid = PAYMENT_PROFILE_KEYS.find((key) => errors[key]);
    if (invalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${invalid}"]`)?.focus();
      return;
    }
    if (!dirty || loading) return;
    setServerError(null);
    const reauthProof = replacesIban ? (proof ?? undefined) : undefined;
    const outcome = await updateProfilePaymentInformation({ ...toInput(values), reauthProof });
    if (!outcome.ok) {
      // The confirmation lasts ten minutes: an expired one is asked for again.
      if (replacesIban && outcome.status?.identifier === 'invalid_credentials') {
        setProof(null);
        setValues((previous) => ({
          ...previous,
          paymentAccountNumber: saved.paymentAccountNumber,
        }));
        setServerError({ text: t('payments.confirm.expired'), detail: null });
        return;
      }
      const text = describeFailure(t, outcome);
      const message = outcome.status?.message?.trim() || null;
      // "Not valid" alone does not say what to fix; the server's message names the field.
      const detail =
        outcome.status?.identifier === 'invalid_input' && message && message !== text
          ? message
          : null;
      if (text) setServerError({ text, detail });
      return;
    }
    const next = toValues(outcome.result.paymentProfile ?? toInput(values));
    setSaved(next);
    setValues(next);
    setTouched({});
    setSubmitted(false);
    setProof(null);
    setJustCompleted(wasIncomplete && missingPaymentFields(toInput(next)).length === 0);
    toasts.success(t('payments.saved'));
  };

  return (
    <div className={styles.sections}>
      <form
        ref={formRef}
        className={layout.panelLarge}
        onSubmit={submit}
        noValidate
        aria-labelledby={titleId}
      >
        <div className={layout.panelHeader}>
          <h2 id={titleId} className={layout.panelTitle}>
            {t('payments.title')}
          </h2>
          <p className={layout.panelText}>{t('payments.text')}</p>
        </div>
        {wasIncomplete && !justCompleted ? (
          <Notice tone="info">
            <p>{t('payments.incomplete')}</p>
          </Notice>
        ) : null}

        <Input
          label={t('payments.fields.paymentName')}
          autoComplete="name"
          {...field('paymentName')}
        />
        <div className={paymentStyles.bankRow}>
          <div className={paymentStyles.ibanField}>
            <Input
              id={ibanId}
              label={t('payments.fields.paymentAccountNumber')}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              placeholder="NL91 ABNA 0417 1643 00"
              {...field('paymentAccountNumber')}
              readOnly={ibanLocked}
              status={shown('paymentAccountNumber') ? 'error' : ibanLocked ? 'hint' : 'none'}
              message={
                shown('paymentAccountNumber') ?? (ibanLocked ? t('payments.confirm.locked') : null)
              }
            />
            {ibanLocked ? (
              <Button variant="secondary" size="sm" onClick={() => setUnlocking(true)}>
                {t('payments.confirm.change')}
              </Button>
            ) : null}
          </div>
          <Input
            label={
              bicRequiredFor(values.paymentAccountNumber)
                ? t('payments.fields.paymentBic')
                : t('payments.fields.paymentBicOptional')
            }
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="ABNANL2A"
            {...field('paymentBic')}
            status={shown('paymentBic') ? 'error' : 'hint'}
            message={shown('paymentBic') ?? t('payments.hints.paymentBic')}
          />
        </div>
        <Input
          label={t('payments.fields.paymentAddress')}
          autoComplete="address-line1"
          {...field('paymentAddress')}
        />
        <div className={paymentStyles.placeRow}>
          <Input
            label={t('payments.fields.paymentPostalCode')}
            autoComplete="postal-code"
            {...field('paymentPostalCode')}
          />
          <Input
            label={t('payments.fields.paymentCity')}
            autoComplete="address-level2"
            {...field('paymentCity')}
          />
        </div>
        <SelectField
          label={t('payments.fields.paymentCountryCode')}
          autoComplete="country"
          {...field('paymentCountryCode')}
        >
          <option value="">{t('payments.chooseCountry')}</option>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </SelectField>
        <Input
          label={t('payments.fields.phoneNumber')}
          type="tel"
          autoComplete="tel"
          placeholder="+31 6 12345678"
          {...field('phoneNumber')}
          status={shown('phoneNumber') ? 'error' : 'hint'}
          message={shown('phoneNumber') ?? t('payments.hints.phoneNumber')}
        />

        {serverError ? (
          <Notice tone="error" title={t('payments.failedTitle')}>
            <p>{serverError.text}</p>
            {serverError.detail ? <p>{serverError.detail}</p> : null}
          </Notice>
        ) : null}
        {justCompleted ? (
          <Notice
            tone="success"
            title={t('payments.completeTitle')}
            actions={
              <ButtonLink to="/wallet" variant="secondary" size="sm">
                {t('payments.toWallet')}
              </ButtonLink>
            }
          >
            <p>{t('payments.completeText')}</p>
          </Notice>
        ) : null}

        <div className={layout.formActions}>
          <Button type="submit" variant="primary" disabled={!dirty} loading={loading}>
            {t('payments.save')}
          </Button>
        </div>
      </form>
      {unlocking ? (
        <ConfirmIdentityDialog
          onClose={() => setUnlocking(false)}
          onConfirmed={(given) => {
            setProof(given);
            setUnlocking(false);
            setServerError(null);
            // The field opens for the new IBAN.
            window.setTimeout(() => document.getElementById(ibanId)?.focus(), 0);
          }}
        />
      ) : null}
    </div>
  );
}

/**
 * Asks for the password before the bank account can change, and says why: whoever changes it
 * receives the payouts. The proof (ten minutes, this session) goes with the saved details.
 */
function ConfirmIdentityDialog({
  onClose,
  onConfirmed,
}: {
  onClose: () => void;
  onConfirmed: (proof: string) => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const { reauthenticate, loading } = useReauthenticate();
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const problem = submitted && !password ? t('payments.errors.required') : null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (!password || loading) return;
    const confirmed = await reauthenticate({ purpose: 'payment_profile', password });
    if (!confirmed.ok) {
      setFailure(describeFailure(t, confirmed) ?? t('errors.generic_error'));
      return;
    }
    if (confirmed.result.proof) onConfirmed(confirmed.result.proof);
    else setFailure(t('errors.generic_error'));
  };

  return (
    <Modal
      open
      onClose={onClose}
      size="sm"
      title={t('payments.confirm.title')}
      description={t('payments.confirm.why')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('payments.confirm.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={loading}>
            {t('payments.confirm.submit')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <PasswordInput
          label={t('payments.confirm.password')}
          name="currentPassword"
          autoComplete="current-password"
          autoFocus
          required
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            setFailure(null);
          }}
          status={problem || failure ? 'error' : 'none'}
          message={problem ?? failure}
        />
      </form>
    </Modal>
  );
}

// i18next's own type: deriving it from useTranslation is too deep for the compiler once the
// locale files grow.
type TranslateFn = TFunction;

/** Light checks before sending; the wallet service checks everything again (IBAN length, BIC). */
function validate(values: Values, t: TranslateFn): Partial<Record<PaymentProfileKey, string>> {
  const errors: Partial<Record<PaymentProfileKey, string>> = {};
  for (const key of PAYMENT_PROFILE_KEYS) {
    const required = isRequiredPaymentField(key, values.paymentAccountNumber);
    if (required && !values[key].trim()) errors[key] = t('payments.errors.required');
  }
  if (!errors.paymentAccountNumber) {
    const problem = ibanProblem(values.paymentAccountNumber);
    if (problem === 'shape') errors.paymentAccountNumber = t('payments.errors.ibanShape');
    if (problem === 'checksum') errors.paymentAccountNumber = t('payments.errors.ibanChecksum');
  }
  if (!errors.paymentBic && values.paymentBic.trim() && !isBicShape(values.paymentBic)) {
    errors.paymentBic = t('payments.errors.bicShape');
  }
  if (!errors.paymentCountryCode && !isEuropeanCountryCode(values.paymentCountryCode)) {
    errors.paymentCountryCode = t('payments.errors.country');
  }
  if (!errors.phoneNumber && !isValidPhoneNumber(values.phoneNumber)) {
    errors.phoneNumber = t('payments.errors.phoneNumber');
  }
  return errors;
}
