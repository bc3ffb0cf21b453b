import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure, failureIdentifier } from '../../../../lib/mutationOutcome';
import { Button } from '../../../../ui/Button';
import { TextArea } from '../../../../ui/Input';
import { Modal } from '../../../../ui/Modal';
import { SelectField } from '../../../../ui/SelectField';
import { DESCRIPTION_MAX, WEEKS_MAX, WEEKS_MIN, charCount } from '../../draft';
import type { ChallengeDetail } from '../../graphql/ChallengeBySlug';
import { useUpdateChallenge } from '../../hooks/useChallengeActions';
import styles from '../Challenge.module.css';

/** The owner edits the description, the visibility and the duration: only while open. */
export function EditDialog({
  challenge,
  onClose,
  onSaved,
  onAccepted,
}: {
  challenge: ChallengeDetail;
  onClose: () => void;
  onSaved: () => Promise<void>;
  /** The challenge was accepted while the dialog was open: the description is fixed now. */
  onAccepted: (reason: string | null) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { updateChallenge, loading } = useUpdateChallenge();
  const [description, setDescription] = useState(challenge.challengeDescription);
  const [visibility, setVisibility] = useState<'public' | 'private'>(
    challenge.visibility === 'private' ? 'private' : 'public',
  );
  const [weeks, setWeeks] = useState<string>('');
  const [failure, setFailure] = useState<string | null>(null);
  const formId = useId();
  const length = charCount(description.trim());
  const descriptionError =
    length === 0
      ? t('createChallenge.errors.descriptionRequired')
      : length < 3
        ? t('createChallenge.errors.minLength', { length: 3 })
        : length > DESCRIPTION_MAX
          ? t('createChallenge.errors.maxLength', { limit: DESCRIPTION_MAX })
          : undefined;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (descriptionError || loading) return;
    const input = {
      slug: challenge.slug,
      ...(description.trim() !== challenge.challengeDescription
        ? { challengeDescription: description.trim() }
        : {}),
      ...(visibility !== challenge.visibility ? { visibility } : {}),
      ...(weeks ? { expirationTimeWeeks: Number(weeks) } : {}),
    };
    if (Object.keys(input).length === 1) {
      onClose();
      return;
    }
    const outcome = await updateChallenge(input);
    if (outcome.ok) await onSaved();
    else if (failureIdentifier(outcome) === 'description_not_editable') {
      await onAccepted(describeFailure(t, outcome));
    } else setFailure(describeFailure(t, outcome));
  };
  return (
    <Modal
      open
      onClose={onClose}
      title={t('challenge.edit.title')}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('challenge.dialog.back')}
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={loading}>
            {t('challenge.edit.save')}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.dialogForm} onSubmit={submit} noValidate>
        <TextArea
          label={t('createChallenge.fields.description')}
          name="challengeDescription"
          rows={4}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          status={descriptionError ? 'error' : 'hint'}
          message={
            descriptionError ??
            t('createChallenge.fields.descriptionCount', { count: length, max: DESCRIPTION_MAX })
          }
        />
        <SelectField
          label={t('createChallenge.fields.visibility')}
          name="visibility"
          value={visibility}
          onChange={(event) =>
            setVisibility(event.target.value === 'private' ? 'private' : 'public')
          }
        >
          <option value="public">{t('createChallenge.visibility.public')}</option>
          <option value="private">{t('createChallenge.visibility.private')}</option>
        </SelectField>
        <SelectField
          label={t('challenge.edit.expiration')}
          name="expirationTimeWeeks"
          value={weeks}
          onChange={(event) => setWeeks(event.target.value)}
          status="hint"
          message={t('challenge.edit.expirationHint')}
        >
          <option value="">{t('challenge.edit.keepExpiration')}</option>
          {Array.from({ length: WEEKS_MAX - WEEKS_MIN + 1 }, (_, index) => index + WEEKS_MIN).map(
            (value) => (
              <option key={value} value={value}>
                {t('createChallenge.expiration.weeksFromNow', { count: value })}
              </option>
            ),
          )}
        </SelectField>
        {failure ? <p role="alert">{failure}</p> : null}
      </form>
    </Modal>
  );
}
