import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure } from '../../../lib/mutationOutcome';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import layout from '../../../ui/layout.module.css';
import { useToasts } from '../../../ui/toast/Toasts';
import type { EmailPreferences } from '../graphql/EmailPreferences';
import { useUpdateEmailPreferences } from '../hooks/useUpdateEmailPreferences';
import {
  PREFERENCE_TOPICS,
  effectivePreferences,
  sameChoices,
  type PreferenceChoices,
} from '../preferences';
import styles from './Notifications.module.css';

const NONE: PreferenceChoices = {
  newChallenge: false,
  updateChallenge: false,
  completedChallenge: false,
  marketing: false,
};

/**
 * The four e-mail choices, as they hold (a choice not made shows its default). Saving makes every
 * choice explicit; "unsubscribe from all" turns everything off at once.
 */
export function EmailPreferencesForm({
  preferences,
  token,
  headingLevel = 'h2',
}: {
  preferences: EmailPreferences;
  /** The e-mail link's token, or null for the logged-in user's own preferences. */
  token: string | null;
  headingLevel?: 'h2' | 'h3';
}) {
  const { t } = useTranslation();
  const toasts = useToasts();
  const titleId = useId();
  const { updateEmailPreferences, loading } = useUpdateEmailPreferences(token);
  const [saved, setSaved] = useState(() => effectivePreferences(preferences));
  const [values, setValues] = useState(saved);
  const Heading = headingLevel;

  const save = async (choices: PreferenceChoices) => {
    const outcome = await updateEmailPreferences(choices);
    if (outcome.ok && outcome.result.emailPreferences) {
      const next = effectivePreferences(outcome.result.emailPreferences);
      setSaved(next);
      setValues(next);
      toasts.success(t('notifications.preferences.saved'));
      return;
    }
    if (!outcome.ok) {
      const text = describeFailure(t, outcome);
      if (text) toasts.error(text);
    }
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading || sameChoices(values, saved)) return;
    void save(values);
  };

  const allOff = sameChoices(saved, NONE);
  return (
    <form className={layout.panelLarge} onSubmit={submit} noValidate aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <Heading id={titleId} className={layout.panelTitle}>
          {t('notifications.preferences.formTitle')}
        </Heading>
        <p className={styles.muted}>{t('notifications.preferences.formText')}</p>
      </div>
      {PREFERENCE_TOPICS.map((topic) => (
        <Checkbox
          key={topic}
          name={topic}
          label={t(`notifications.preferences.topics.${topic}.label`)}
          status="hint"
          message={t(`notifications.preferences.topics.${topic}.hint`)}
          checked={values[topic]}
          onChange={(event) => setValues({ ...values, [topic]: event.target.checked })}
        />
      ))}
      <p className={styles.muted}>{t('notifications.preferences.transactional')}</p>
      <div className={layout.formActions}>
        <Button
          type="button"
          variant="tertiary"
          disabled={loading || allOff}
          onClick={() => void save(NONE)}
        >
          {t('notifications.preferences.unsubscribeAll')}
        </Button>
        <Button
          type="submit"
          variant="primary"
          disabled={sameChoices(values, saved)}
          loading={loading}
        >
          {t('notifications.preferences.save')}
        </Button>
      </div>
    </form>
  );
}
