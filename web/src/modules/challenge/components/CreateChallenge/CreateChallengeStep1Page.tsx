import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { cx } from '../../../../lib/cx';
import { usePageMeta } from '../../../../lib/usePageMeta';
import { Button } from '../../../../ui/Button';
import { Input, TextArea } from '../../../../ui/Input';
import layout from '../../../../ui/layout.module.css';
import { useGetCurrentUser } from '../../../auth/hooks/useGetCurrentUser';
import {
  DESCRIPTION_MAX,
  charCount,
  splitEmails,
  step1Problems,
  type DraftField,
} from '../../draft';
import { useChallengeDraft } from '../../hooks/useChallengeDraft';
import styles from './CreateChallenge.module.css';
import { STEP_2_PATH } from './steps';
import { UsernameField } from './UsernameField';
import { useProblemText } from './useProblemText';

/** /challenge/create/step-1 "Send your Challenge": who (a username or e-mails) and what. */
export function CreateChallengeStep1Page() {
  const { t } = useTranslation();
  usePageMeta(t('createChallenge.step1.title'), t('createChallenge.step1.metaDescription'));
  const navigate = useNavigate();
  const { user } = useGetCurrentUser();
  const { draft, update } = useChallengeDraft();
  const [submitted, setSubmitted] = useState(false);
  const [touched, setTouched] = useState<Partial<Record<DraftField, boolean>>>({});
  const problems = step1Problems(draft, { username: user?.username ?? null });
  const problemText = useProblemText(problems);
  const shown = (field: DraftField) =>
    submitted || touched[field] ? problemText(field) : undefined;
  const touch = (field: DraftField) => setTouched((previous) => ({ ...previous, [field]: true }));
  const titleId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (problems.length === 0) void navigate(STEP_2_PATH);
  };

  const descriptionLength = charCount(draft.description.trim());
  const targetError = shown('target');
  return (
    <section className={layout.panel} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h1 id={titleId} className={layout.panelTitle}>
          {t('createChallenge.step1.title')}
        </h1>
        <p className={layout.panelText}>{t('createChallenge.step1.intro')}</p>
      </div>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={titleId}>
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
          <Button type="submit" variant="action-gradient">
            {t('createChallenge.step1.next')}
          </Button>
        </div>
      </form>
    </section>
  );
}
