import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { cx } from '../../../../lib/cx';
import { usePageMeta } from '../../../../lib/usePageMeta';
import { Button } from '../../../../ui/Button';
import { Input, TextArea } from '../../../../ui/Input';
import layout from '../../../../ui/layout.module.css';
import { useFocusFirstInvalid } from '../../../../ui/useFocusFirstInvalid';
import { useGetCurrentUser } from '../../../auth/hooks/useGetCurrentUser';
import {
  DESCRIPTION_MAX,
  charCount,
  lookupUsername,
  splitEmails,
  step1Problems,
  type DraftField,
  type DraftProblem,
} from '../../draft';
import { useChallengeDraft } from '../../hooks/useChallengeDraft';
import { useChallengeTarget, type TargetCheck } from '../../hooks/useChallengeTarget';
import styles from './CreateChallenge.module.css';
import { STEP_2_PATH } from './steps';
import { UsernameField } from './UsernameField';
import { useProblemText } from './useProblemText';

/** What the look-up of the username says against it, as a problem of the target field. */
export function targetCheckProblem(check: TargetCheck, username: string): DraftProblem | null {
  if (check.state === 'unknown')
    return { field: 'target', key: 'userNotFound', values: { username } };
  if (check.state === 'not-challengeable')
    return { field: 'target', key: 'userNotChallengeable', values: { username } };
  return null;
}

/** /challenge/create/step-1 "Send your Challenge": who (a username or e-mails) and what. */
export function CreateChallengeStep1Page() {
  const { t } = useTranslation();
  usePageMeta(t('createChallenge.step1.title'), t('createChallenge.step1.metaDescription'));
  const navigate = useNavigate();
  const { user } = useGetCurrentUser();
  const { draft, update } = useChallengeDraft();
  const [submitted, setSubmitted] = useState(false);
  const [touched, setTouched] = useState<Partial<Record<DraftField, boolean>>>({});
  const viewer = { username: user?.username ?? null };
  const username = lookupUsername(draft, viewer);
  const { check, checkNow } = useChallengeTarget(username);
  const lookedUp = username ? targetCheckProblem(check, username) : null;
  const problems = [...step1Problems(draft, viewer), ...(lookedUp ? [lookedUp] : [])];
  const problemText = useProblemText(problems);
  // The look-up's verdict shows as soon as it is known; the form's own rules after touch or Next.
  const shown = (field: DraftField) =>
    submitted || touched[field] || (field === 'target' && lookedUp)
      ? problemText(field)
      : undefined;
  const touch = (field: DraftField) => setTouched((previous) => ({ ...previous, [field]: true }));
  const titleId = useId();
  const { ref: formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const [checking, setChecking] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (problems.length > 0) return focusFirstInvalid();
    if (username) {
      setChecking(true);
      const verdict = targetCheckProblem(await checkNow(), username);
      setChecking(false);
      if (verdict) return focusFirstInvalid();
    }
    void navigate(STEP_2_PATH);
  };

  const descriptionLength = charCount(draft.description.trim());
  const targetError = shown('target');
  return (
    <section className={layout.panel} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h1 id={titleId} className={layout.panelTitle} tabIndex={-1} data-step-heading>
          {t('createChallenge.step1.title')}
        </h1>
        <p className={layout.panelText}>{t('createChallenge.step1.intro')}</p>
      </div>
      <form
        ref={formRef}
        className={styles.form}
        onSubmit={(event) => void submit(event)}
        noValidate
        aria-labelledby={titleId}
      >
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>{t('createChallenge.target.legend')}</legend>
          <div className={styles.segmented} role="radiogroup">
            {(['username', 'email'] as const).map((target) => (
              <label
                key={target}
                className={cx(styles.segment, draft.target === target && styles.segmentActive)}
              >
                <input
                  type="radio"
                  name="target"
                  value={target}
                  checked={draft.target === target}
                  onChange={() => update({ target })}
                />
                {t(`createChallenge.target.${target}`)}
              </label>
            ))}
          </div>
          {draft.target === 'username' ? (
            <UsernameField
              value={draft.challengedUsername}
              viewerUsername={user?.username ?? null}
              error={targetError}
              check={username ? check : { state: 'idle' }}
              onChange={(challengedUsername) => update({ challengedUsername })}
              onBlur={() => touch('target')}
            />
          ) : (
            <Input
              label={t('createChallenge.target.emailsLabel')}
              name="challengedUserEmailsString"
              type="text"
              inputMode="email"
              autoComplete="off"
              placeholder="anna@example.com, ben@example.com"
              value={draft.challengedUserEmailsString}
              onChange={(event) => update({ challengedUserEmailsString: event.target.value })}
              onBlur={() => touch('target')}
              status={targetError ? 'error' : 'hint'}
              message={
                targetError ??
                t('createChallenge.target.emailsHint', {
                  count: splitEmails(draft.challengedUserEmailsString).length,
                })
              }
            />
          )}
        </fieldset>
        <Input
          label={t('createChallenge.fields.name')}
          name="challengeName"
          autoComplete="off"
          placeholder={t('createChallenge.fields.namePlaceholder')}
          value={draft.name}
          onChange={(event) => update({ name: event.target.value })}
          onBlur={() => touch('name')}
          status={shown('name') ? 'error' : 'none'}
          message={shown('name')}
        />
        <TextArea
          label={t('createChallenge.fields.description')}
          name="challengeDescription"
          rows={4}
          placeholder={t('createChallenge.fields.descriptionPlaceholder')}
          value={draft.description}
          onChange={(event) => update({ description: event.target.value })}
          onBlur={() => touch('description')}
          status={shown('description') ? 'error' : 'hint'}
          message={
            shown('description') ??
            t('createChallenge.fields.descriptionCount', {
              count: descriptionLength,
              max: DESCRIPTION_MAX,
            })
          }
        />
        <div className={layout.formActions}>
          <Button type="submit" variant="action-gradient" loading={checking}>
            {t('createChallenge.step1.next')}
          </Button>
        </div>
      </form>
    </section>
  );
}
