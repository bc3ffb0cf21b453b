import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cx } from '../../../../lib/cx';
import { formatAmount, formatEuroInput, parseEuroInput } from '../../../../lib/money';
import { describeFailure, failureIdentifier } from '../../../../lib/mutationOutcome';
import { usePageMeta } from '../../../../lib/usePageMeta';
import { Button, ButtonLink } from '../../../../ui/Button';
import { Checkbox } from '../../../../ui/Checkbox';
import { CloseIcon, PlusIcon } from '../../../../ui/icons';
import { Input } from '../../../../ui/Input';
import layout from '../../../../ui/layout.module.css';
import { Notice } from '../../../../ui/Notice';
import { SelectField } from '../../../../ui/SelectField';
import { useGetCurrentUser } from '../../../auth/hooks/useGetCurrentUser';
import { useModalRoute } from '../../../auth/hooks/useModalRoute';
import {
  TAGS_MAX,
  TAG_MAX_LENGTH,
  WEEKS_MAX,
  WEEKS_MIN,
  amountInCents,
  isoDay,
  latestExpiration,
  normalizeTag,
  splitEmails,
  step1Problems,
  step2Problems,
  toCreateInput,
  type DraftField,
} from '../../draft';
import { useChallengeDraft } from '../../hooks/useChallengeDraft';
import { useChallengeRules } from '../../hooks/useChallengeRules';
import { useCreateChallenge } from '../../hooks/useCreateChallenge';
import styles from './CreateChallenge.module.css';
import { CreatedPanel, type Created } from './CreatedPanel';
import { STEP_2_PATH } from './steps';
import { useProblemText } from './useProblemText';

/** /challenge/create/step-2 "Challenge Details": reward, duration, visibility, tags, type, credit. */
export function CreateChallengeStep2Page() {
  const { t, i18n } = useTranslation();
  usePageMeta(t('createChallenge.step2.title'), t('createChallenge.step2.metaDescription'));
  const language = i18n.language;
  const { user, isLoggedIn } = useGetCurrentUser();
  const { openModal } = useModalRoute();
  const { draft, update, reset } = useChallengeDraft();
  const { createChallenge, loading } = useCreateChallenge();
  const [amountText, setAmountText] = useState(() =>
    formatEuroInput(amountInCents(draft.amount), language),
  );
  const [tagText, setTagText] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<{ identifier: string | null; text: string } | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const titleId = useId();
  const now = new Date();
  const rules = useChallengeRules();
  const problems = step2Problems(draft, now, rules);
  const problemText = useProblemText(problems);
  const shown = (field: DraftField) => (submitted ? problemText(field) : undefined);
  const step1Ok = step1Problems(draft, { username: user?.username ?? null }).length === 0;
  const cents = amountInCents(draft.amount);

  if (created) return <CreatedPanel created={created} />;

  const addTag = () => {
    const tag = normalizeTag(tagText).slice(0, TAG_MAX_LENGTH);
    if (!tag) return;
    if (!draft.tags.some((existing) => existing.toLowerCase() === tag.toLowerCase()))
      update({ tags: [...draft.tags, tag].slice(0, TAGS_MAX) });
    setTagText('');
  };
  const onTagKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      addTag();
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    if (problems.length > 0 || !step1Ok || loading) return;
    if (!isLoggedIn) {
      openModal('login-magic-link');
      return;
    }
    const outcome = await createChallenge(toCreateInput(draft));
    if (outcome.ok) {
      reset();
      setCreated(outcome.result.challenges ?? []);
      return;
    }
    const text = describeFailure(t, outcome);
    if (text) setFailure({ identifier: failureIdentifier(outcome), text });
  };

  const topUpLink = `/wallet/top-up?${new URLSearchParams({
    amount: String(Math.max(cents, 1)),
    originUrl: STEP_2_PATH,
  }).toString()}`;
  const expirationError = shown('expiration');
  const today = new Date(now);
  const firstDay = new Date(now.getTime() + 8 * 24 * 60 * 60 * 1000);
  const lastDay = latestExpiration(today);
  lastDay.setDate(lastDay.getDate() - 1);

  return (
    <section className={layout.panel} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h1 id={titleId} className={layout.panelTitle} tabIndex={-1} data-step-heading>
          {t('createChallenge.step2.title')}
        </h1>
        <p className={layout.panelText}>{t('createChallenge.step2.intro')}</p>
      </div>
      {!step1Ok ? (
        <Notice
          tone="warning"
          title={t('createChallenge.step2.step1Missing')}
          actions={
            <ButtonLink to="/challenge/create/step-1" variant="secondary" size="sm">
              {t('createChallenge.step2.backToStep1')}
            </ButtonLink>
          }
        />
      ) : (
        <div className={styles.summary}>
          <p className={styles.summaryName}>{draft.name.trim()}</p>
          <p className={styles.summaryTarget}>
            {draft.target === 'username'
              ? t('createChallenge.step2.forUser', {
                  username: draft.challengedUsername.trim().replace(/^@/, ''),
                })
              : t('createChallenge.step2.forEmails', {
                  count: splitEmails(draft.challengedUserEmailsString).length,
                })}
          </p>
          <Link to="/challenge/create/step-1" className={styles.summaryEdit}>
            {t('createChallenge.step2.editStep1')}
          </Link>
        </div>
      )}
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={titleId}>
        <div className={styles.row}>
          <Input
            label={t('createChallenge.fields.amount')}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amountText}
            onChange={(event) => {
              setAmountText(event.target.value);
              const parsed = parseEuroInput(event.target.value);
              update({ amount: parsed === null ? 0 : parsed / 100 });
            }}
            endAdornment={<span className={styles.currency}>EUR</span>}
            status={shown('amount') ? 'error' : 'hint'}
            message={
              shown('amount') ??
              (cents > 0
                ? t('createChallenge.fields.amountHint', { amount: formatAmount(cents, language) })
                : undefined)
            }
          />
          <SelectField
            label={t('createChallenge.fields.visibility')}
            name="visibility"
            value={draft.visibility}
            onChange={(event) =>
              update({ visibility: event.target.value === 'private' ? 'private' : 'public' })
            }
            status="hint"
            message={t(`createChallenge.visibility.${draft.visibility}Hint`)}
          >
            <option value="public">{t('createChallenge.visibility.public')}</option>
            <option value="private">{t('createChallenge.visibility.private')}</option>
          </SelectField>
        </div>

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>{t('createChallenge.expiration.legend')}</legend>
          <div className={styles.segmented} role="radiogroup">
            <label className={cx(styles.segment, !draft.expirationDate && styles.segmentActive)}>
              <input
                type="radio"
                name="expirationMode"
                checked={!draft.expirationDate}
                onChange={() => update({ expirationDate: '' })}
              />
              {t('createChallenge.expiration.weeksMode')}
            </label>
            <label
              className={cx(styles.segment, Boolean(draft.expirationDate) && styles.segmentActive)}
            >
              <input
                type="radio"
                name="expirationMode"
                checked={Boolean(draft.expirationDate)}
                onChange={() => update({ expirationDate: isoDay(latestOf(firstDay, now)) })}
              />
              {t('createChallenge.expiration.dateMode')}
            </label>
          </div>
          {draft.expirationDate ? (
            <Input
              label={t('createChallenge.expiration.date')}
              name="expirationDate"
              type="date"
              min={isoDay(firstDay)}
              max={isoDay(lastDay)}
              value={draft.expirationDate}
              onChange={(event) => update({ expirationDate: event.target.value })}
              status={expirationError ? 'error' : 'hint'}
              message={expirationError ?? t('createChallenge.expiration.dateHint')}
            />
          ) : (
            <SelectField
              label={t('createChallenge.expiration.weeks')}
              name="expirationTimeWeeks"
              value={String(draft.expirationTimeWeeks)}
              onChange={(event) => update({ expirationTimeWeeks: Number(event.target.value) })}
              status={expirationError ? 'error' : 'none'}
              message={expirationError}
            >
              {Array.from(
                { length: WEEKS_MAX - WEEKS_MIN + 1 },
                (_, index) => index + WEEKS_MIN,
              ).map((weeks) => (
                <option key={weeks} value={weeks}>
                  {t('createChallenge.expiration.weeksOption', { count: weeks })}
                </option>
              ))}
            </SelectField>
          )}
        </fieldset>

        <div className={styles.tagsField}>
          <Input
            label={t('createChallenge.tags.label')}
            name="tag"
            autoComplete="off"
            placeholder={t('createChallenge.tags.placeholder')}
            value={tagText}
            maxLength={TAG_MAX_LENGTH + 1}
            disabled={draft.tags.length >= TAGS_MAX}
            onChange={(event) => setTagText(event.target.value)}
            onKeyDown={onTagKey}
            endAdornment={
              <Button
                variant="tertiary"
                size="xs"
                onClick={addTag}
                iconStart={<PlusIcon size={14} />}
                disabled={!normalizeTag(tagText)}
              >
                {t('createChallenge.tags.add')}
              </Button>
            }
            status={shown('tags') ? 'error' : 'hint'}
            message={shown('tags') ?? t('createChallenge.tags.hint', { max: TAGS_MAX })}
          />
          {draft.tags.length > 0 ? (
            <ul className={styles.chips} aria-label={t('createChallenge.tags.list')}>
              {draft.tags.map((tag) => (
                <li key={tag} className={styles.tag}>
                  <span>#{tag}</span>
                  <button
                    type="button"
                    className={styles.tagRemove}
                    aria-label={t('createChallenge.tags.remove', { tag })}
                    onClick={() => update({ tags: draft.tags.filter((entry) => entry !== tag) })}
                  >
                    <CloseIcon size={14} />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>{t('createChallenge.type.legend')}</legend>
          <div className={styles.segmented} role="radiogroup">
            {(['solo', 'duel'] as const).map((type) => (
              <label
                key={type}
                className={cx(styles.segment, draft.challengeType === type && styles.segmentActive)}
              >
                <input
                  type="radio"
                  name="challengeType"
                  value={type}
                  checked={draft.challengeType === type}
                  onChange={() => update({ challengeType: type })}
                />
                {t(`createChallenge.type.${type}`)}
              </label>
            ))}
          </div>
          <p className={styles.note}>
            {draft.challengeType === 'duel' ? t('duel.create.duelNote') : t('duel.create.soloNote')}
          </p>
        </fieldset>

        <Checkbox
          name="acceptCredit"
          checked={draft.acceptCredit}
          onChange={(event) => update({ acceptCredit: event.target.checked })}
          label={t('createChallenge.fields.acceptCredit', {
            amount: formatAmount(Math.max(cents, 0), language),
          })}
          status={shown('acceptCredit') ? 'error' : 'none'}
          message={shown('acceptCredit')}
        />

        {failure ? (
          <Notice
            tone="error"
            title={t('createChallenge.step2.failedTitle')}
            actions={
              failure.identifier === 'insufficient_funds' ? (
                <ButtonLink to={topUpLink} variant="action-gradient" size="sm">
                  {t('createChallenge.step2.topUp', { amount: formatAmount(cents, language) })}
                </ButtonLink>
              ) : undefined
            }
          >
            <p>{failure.text}</p>
          </Notice>
        ) : null}
        {!isLoggedIn ? (
          <p className={styles.note}>{t('createChallenge.step2.loginFirst')}</p>
        ) : null}
        <div className={layout.formActions}>
          <ButtonLink to="/challenge/create/step-1" variant="secondary">
            {t('createChallenge.step2.back')}
          </ButtonLink>
          <Button type="submit" variant="action-gradient" loading={loading}>
            {isLoggedIn
              ? t('createChallenge.step2.submit')
              : t('createChallenge.step2.loginToSend')}
          </Button>
        </div>
      </form>
    </section>
  );
}

function latestOf(a: Date, b: Date): Date {
  return a.getTime() > b.getTime() ? a : b;
}
