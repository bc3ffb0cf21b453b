import { useApolloClient } from '@apollo/client/react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatEuroInput, MAX_INPUT_CENTS, parseEuroInput } from '../../../lib/money';
import { errorText } from '../../../lib/errorMessages';
import {
  describeFailure,
  failureIdentifier,
  type MutationOutcome,
} from '../../../lib/mutationOutcome';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { Input, TextArea } from '../../../ui/Input';
import { PageLoader } from '../../../ui/PageLoader';
import layout from '../../../ui/layout.module.css';
import { useToasts } from '../../../ui/toast/Toasts';
import { CurrentUserDocument } from '../../auth/graphql/CurrentUser';
import { displayNameOf, useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { TOO_LARGE_MESSAGE, updateProfileWithAvatar, type ProfileResult } from '../avatarUpload';
import { SettingsDocument, type UserSettings } from '../graphql/Settings';
import { useGetSettings } from '../hooks/useGetSettings';
import { useUpdateChallengeableProfile } from '../hooks/useUpdateChallengeableProfile';
import { useUpdateMinimalChallenge } from '../hooks/useUpdateMinimalChallenge';
import { useUpdateProfile } from '../hooks/useUpdateProfile';
import { useUpdatePublicProfile } from '../hooks/useUpdatePublicProfile';
import { AvatarPicker, type AvatarChoice } from './AvatarPicker';
import { SettingsLoadFailure } from './SettingsLoadFailure';
import styles from './Settings.module.css';

/** Server limits of the profile fields. */
const DISPLAY_NAME_MAX = 60;
const BIO_MAX = 500;

type Failed = Extract<MutationOutcome<unknown>, { ok: false }>;

/** Saves and tells the user how it went; resolves to true when every step succeeded. */
function useSaveFeedback() {
  const { t } = useTranslation();
  const toasts = useToasts();
  return {
    saved: () => toasts.success(t('settings.saved')),
    failed: (outcome: Failed) => {
      const text = describeFailure(t, outcome);
      if (text) toasts.error(text);
    },
  };
}

/** /settings/edit-profile: picture, name and bio, being challenged, and who sees the profile. */
export function EditProfilePage() {
  const { t } = useTranslation();
  usePageMeta(`${t('settings.sections.edit-profile.title')} · ${t('settings.title')}`);
  const { settings, failure, loading, refetch } = useGetSettings();
  if (loading) return <PageLoader />;
  if (!settings) return <SettingsLoadFailure failure={failure} onRetry={refetch} />;
  return (
    <div className={styles.sections}>
      <ProfileDetailsForm settings={settings} />
      <ChallengePreferencesForm settings={settings} />
      <PrivacyForm settings={settings} />
    </div>
  );
}

/** The picture's problems the picker shows itself; anything else goes to the toast. */
const AVATAR_FAILURES = new Set(['invalid_file', 'upload_error']);

function ProfileDetailsForm({ settings }: { settings: UserSettings }) {
  const { t } = useTranslation();
  const titleId = useId();
  const feedback = useSaveFeedback();
  const client = useApolloClient();
  const { user } = useGetCurrentUser();
  const { updateProfile, loading: saving } = useUpdateProfile();
  const [uploading, setUploading] = useState(false);
  const loading = saving || uploading;
  const initial = { displayName: settings.displayName ?? '', bio: settings.bio ?? '' };
  const [saved, setSaved] = useState(initial);
  const [values, setValues] = useState(initial);
  const [savedAvatar, setSavedAvatar] = useState(settings.avatar);
  const [avatar, setAvatar] = useState<AvatarChoice>({ kind: 'keep' });
  const [avatarError, setAvatarError] = useState<string | null>(null);

  const nameError =
    values.displayName.trim().length > DISPLAY_NAME_MAX
      ? t('validation.maxLength', { max: DISPLAY_NAME_MAX })
      : null;
  const bioError =
    values.bio.trim().length > BIO_MAX ? t('validation.maxLength', { max: BIO_MAX }) : null;
  const dirty =
    avatar.kind !== 'keep' ||
    values.displayName.trim() !== saved.displayName.trim() ||
    values.bio.trim() !== saved.bio.trim();

  /** A new picture goes as a multipart request (to media, then identity); the rest as JSON. */
  const send = async (fields: {
    displayName: string | null;
    bio: string | null;
  }): Promise<MutationOutcome<ProfileResult>> => {
    if (avatar.kind !== 'new') {
      return updateProfile({ ...fields, ...(avatar.kind === 'remove' ? { avatar: null } : {}) });
    }
    setUploading(true);
    try {
      const outcome = await updateProfileWithAvatar(avatar.file, fields);
      // The sidebar's picture and the settings the next visit reads.
      if (outcome.ok) {
        await client
          .refetchQueries({ include: [CurrentUserDocument, SettingsDocument] })
          .catch(() => undefined);
      }
      return outcome;
    } finally {
      setUploading(false);
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!dirty || nameError || bioError || loading) return;
    const displayName = values.displayName.trim();
    const bio = values.bio.trim();
    setAvatarError(null);
    const outcome = await send({ displayName: displayName || null, bio: bio || null });
    if (outcome.ok) {
      const next = {
        displayName: outcome.result.displayName ?? displayName,
        bio: outcome.result.bio ?? bio,
      };
      setSaved(next);
      setValues(next);
      setSavedAvatar(outcome.result.avatar);
      setAvatar({ kind: 'keep' });
      feedback.saved();
      return;
    }
    const identifier = failureIdentifier(outcome);
    if (avatar.kind === 'new' && identifier && AVATAR_FAILURES.has(identifier)) {
      setAvatarError(
        outcome.status?.message?.trim() === TOO_LARGE_MESSAGE
          ? t('settings.avatar.tooLarge')
          : identifier === 'invalid_file'
            ? t('settings.avatar.invalidType')
            : errorText(t, identifier),
      );
      return;
    }
    feedback.failed(outcome);
  };

  return (
    <form className={layout.panelLarge} onSubmit={submit} noValidate aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h2 id={titleId} className={layout.panelTitle}>
          {t('settings.profile.title')}
        </h2>
        <p className={layout.panelText}>{t('settings.profile.text')}</p>
      </div>
      <AvatarPicker
        name={values.displayName.trim() || (user ? displayNameOf(user) : '')}
        saved={savedAvatar}
        choice={avatar}
        onChoice={(choice) => {
          setAvatarError(null);
          setAvatar(choice);
        }}
        error={avatarError}
        busy={uploading}
      />
      <Input
        label={t('settings.profile.displayName')}
        name="displayName"
        autoComplete="nickname"
        maxLength={DISPLAY_NAME_MAX + 20}
        value={values.displayName}
        onChange={(event) => setValues({ ...values, displayName: event.target.value })}
        status={nameError ? 'error' : 'hint'}
        message={nameError ?? t('settings.profile.displayNameHint')}
      />
      <TextArea
        label={t('settings.profile.bio')}
        name="bio"
        rows={4}
        value={values.bio}
        onChange={(event) => setValues({ ...values, bio: event.target.value })}
        status={bioError ? 'error' : 'hint'}
        message={
          bioError ??
          t('settings.profile.bioCount', { count: values.bio.trim().length, max: BIO_MAX })
        }
      />
      <div className={layout.formActions}>
        <Button
          type="submit"
          variant="primary"
          disabled={!dirty || Boolean(nameError || bioError)}
          loading={loading}
        >
          {t('settings.save')}
        </Button>
      </div>
    </form>
  );
}

function ChallengePreferencesForm({ settings }: { settings: UserSettings }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const feedback = useSaveFeedback();
  const challengeableMutation = useUpdateChallengeableProfile();
  const minimalMutation = useUpdateMinimalChallenge();
  const [saved, setSaved] = useState({
    challengeable: settings.challengeable,
    enabled: settings.minimumChallengeEnabled,
    cents: settings.minimumChallengeValue,
  });
  const [challengeable, setChallengeable] = useState(settings.challengeable);
  const [enabled, setEnabled] = useState(settings.minimumChallengeEnabled);
  const [amount, setAmount] = useState(() =>
    settings.minimumChallengeEnabled || settings.minimumChallengeValue > 0
      ? formatEuroInput(settings.minimumChallengeValue, i18n.language)
      : '',
  );
  const [amountTouched, setAmountTouched] = useState(false);
  const loading = challengeableMutation.loading || minimalMutation.loading;

  const cents = parseEuroInput(amount);
  const amountError = !enabled
    ? null
    : amount.trim() === ''
      ? t('validation.required')
      : cents === null
        ? // No digit at all: the spec's "Value must be numeric"; else show the expected shape.
          /\d/.test(amount)
          ? t('settings.challenges.amountInvalid')
          : t('validation.numeric')
        : cents <= 0
          ? t('validation.minValue', { min: formatAmount(1, i18n.language) })
          : cents > MAX_INPUT_CENTS
            ? t('validation.maxValue', { max: formatAmount(MAX_INPUT_CENTS, i18n.language) })
            : null;
  // The value to send: the typed amount when it is usable, else the one on record.
  const sentCents = enabled ? cents : cents !== null && cents <= MAX_INPUT_CENTS ? cents : null;
  const minimalChanged =
    enabled !== saved.enabled || (enabled && cents !== null && cents !== saved.cents);
  const dirty = challengeable !== saved.challengeable || minimalChanged;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAmountTouched(true);
    if (!dirty || amountError || loading) return;
    if (challengeable !== saved.challengeable) {
      const outcome = await challengeableMutation.updateChallengeableProfile({ challengeable });
      if (!outcome.ok) return feedback.failed(outcome);
      setSaved((previous) => ({ ...previous, challengeable }));
    }
    if (minimalChanged) {
      const value = sentCents ?? saved.cents;
      const outcome = await minimalMutation.updateMinimalChallenge({
        minimumChallengeEnabled: enabled,
        minimumChallengeValue: value,
      });
      if (!outcome.ok) return feedback.failed(outcome);
      setSaved((previous) => ({ ...previous, enabled, cents: value }));
    }
    feedback.saved();
  };

  const shownAmountError = amountTouched ? amountError : null;
  return (
    <form className={layout.panelLarge} onSubmit={submit} noValidate aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h2 id={titleId} className={layout.panelTitle}>
          {t('settings.challenges.title')}
        </h2>
        <p className={layout.panelText}>{t('settings.challenges.text')}</p>
      </div>
      <Checkbox
        label={t('settings.challenges.challengeable')}
        name="challengeable"
        checked={challengeable}
        onChange={(event) => setChallengeable(event.target.checked)}
      />
      <Checkbox
        label={t('settings.challenges.minimumEnabled')}
        name="minimumChallengeEnabled"
        checked={enabled}
        onChange={(event) => setEnabled(event.target.checked)}
      />
      {enabled ? (
        <div className={styles.nested}>
          <Input
            className={styles.amount}
            label={t('settings.challenges.amount')}
            name="minimumChallengeValue"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(event) => {
              setAmount(event.target.value);
              setAmountTouched(true);
            }}
            onBlur={() => setAmountTouched(true)}
            placeholder={formatEuroInput(500, i18n.language)}
            status={shownAmountError ? 'error' : 'hint'}
            message={shownAmountError ?? t('settings.challenges.amountHint')}
          />
        </div>
      ) : null}
      <div className={layout.formActions}>
        <Button
          type="submit"
          variant="primary"
          disabled={!dirty || Boolean(amountError)}
          loading={loading}
        >
          {t('settings.save')}
        </Button>
      </div>
    </form>
  );
}

function PrivacyForm({ settings }: { settings: UserSettings }) {
  const { t } = useTranslation();
  const titleId = useId();
  const feedback = useSaveFeedback();
  const { updatePublicProfile, loading } = useUpdatePublicProfile();
  const [saved, setSaved] = useState(settings.publicProfile);
  const [publicProfile, setPublicProfile] = useState(settings.publicProfile);
  const dirty = publicProfile !== saved;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!dirty || loading) return;
    const outcome = await updatePublicProfile({ publicProfile });
    if (!outcome.ok) return feedback.failed(outcome);
    setSaved(publicProfile);
    feedback.saved();
  };

  return (
    <form className={layout.panelLarge} onSubmit={submit} noValidate aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h2 id={titleId} className={layout.panelTitle}>
          {t('settings.privacy.title')}
        </h2>
      </div>
      <Checkbox
        label={t('settings.privacy.publicProfile')}
        name="publicProfile"
        checked={publicProfile}
        onChange={(event) => setPublicProfile(event.target.checked)}
        status="hint"
        message={t('settings.privacy.publicProfileHint')}
      />
      <div className={layout.formActions}>
        <Button type="submit" variant="primary" disabled={!dirty} loading={loading}>
          {t('settings.save')}
        </Button>
      </div>
    </form>
  );
}
