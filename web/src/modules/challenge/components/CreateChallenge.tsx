import { useQuery } from '@apollo/client/react';
import { useId, useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { cx } from '../../../lib/cx';
import { formatAmount, formatEuroInput, parseEuroInput } from '../../../lib/money';
import { describeFailure, failureIdentifier } from '../../../lib/mutationOutcome';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button, ButtonLink } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { CheckIcon, CloseIcon, PlusIcon } from '../../../ui/icons';
import { Input, TextArea } from '../../../ui/Input';
import layout from '../../../ui/layout.module.css';
import { Notice } from '../../../ui/Notice';
import { SelectField } from '../../../ui/SelectField';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { useModalRoute } from '../../auth/hooks/useModalRoute';
import { FollowingDocument } from '../../profile/graphql/Following';
import {
  DESCRIPTION_MAX,
  TAGS_MAX,
  TAG_MAX_LENGTH,
  WEEKS_MAX,
  WEEKS_MIN,
  amountInCents,
  charCount,
  isoDay,
  latestExpiration,
  normalizeTag,
  splitEmails,
  step1Problems,
  step2Problems,
  toCreateInput,
  type DraftField,
  type DraftProblem,
} from '../draft';
import { useChallengeDraft, type CreateChallengeWelcome } from '../hooks/useChallengeDraft';
import { useChallengeRules } from '../hooks/useChallengeRules';
import { useCopyChallengeLink } from '../hooks/useCopyChallengeLink';
import { useCreateChallenge } from '../hooks/useCreateChallenge';
import styles from './CreateChallenge.module.css';

const STEPS = [
  { path: '/challenge/create/step-1', key: 'step1' },
  { path: '/challenge/create/step-2', key: 'step2' },
] as const;

export const STEP_2_PATH = '/challenge/create/step-2';

/** /challenge/create: the two-step flow with its step indicator. */
export function CreateChallengeLayout() {
  const { t } = useTranslation();
  const welcome = (useLocation().state as Partial<CreateChallengeWelcome> | null)?.welcome;
  return (
    <div className={styles.layout}>
      {welcome ? (
        <Notice tone="success" title={t('createChallenge.welcome.title', welcome)}>
          <p>{t('createChallenge.welcome.text')}</p>
        </Notice>
      ) : null}
      <nav aria-label={t('createChallenge.stepsLabel')}>
        <ol className={styles.steps}>
          {STEPS.map((step, index) => (
            <li key={step.key}>
              <NavLink
                to={step.path}
                className={({ isActive }) => cx(styles.step, isActive && styles.active)}
              >
                <span className={styles.number} aria-hidden="true">
                  {index + 1}
                </span>
                <span className={styles.stepText}>
                  <span className={styles.stepLabel}>
                    {t('createChallenge.stepN', { n: index + 1 })}
                  </span>
                  <span className={styles.stepTitle}>{t(`createChallenge.${step.key}.title`)}</span>
                </span>
              </NavLink>
            </li>
          ))}
        </ol>
      </nav>
      <Outlet />
    </div>
  );
}

/** The first problem of a field as text, or undefined. */
function useProblemText(problems: DraftProblem[]) {
  const { t, i18n } = useTranslation();
  return (field: DraftField): string | undefined => {
    const problem = problems.find((entry) => entry.field === field);
    if (!problem) return undefined;
    const { minCents, ...values } = problem.values ?? {};
    return t(`createChallenge.errors.${problem.key}` as 'createChallenge.errors.titleRequired', {
      ...values,
      // An amount in cents reads as euros in the UI language.
      ...(typeof minCents === 'number' ? { min: formatAmount(minCents, i18n.language) } : {}),
    });
  };
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

/**
 * A username typed by hand; identity has no user search, so the suggestions are the people the
 * viewer follows whose username or name matches what is typed.
 */
function UsernameField({
  value,
  viewerUsername,
  error,
  onChange,
  onBlur,
}: {
  value: string;
  viewerUsername: string | null;
  error: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const { t } = useTranslation();
  const { data } = useQuery(FollowingDocument, {
    variables: { username: viewerUsername ?? '', page: 1, itemsPerPage: 50 },
    skip: !viewerUsername,
    context: { suppressErrorToast: true },
  });
  const typed = value.trim().replace(/^@/, '').toLowerCase();
  const suggestions = useMemo(() => {
    const people = data?.getFollowing?.status.success ? (data.getFollowing.items ?? []) : [];
    return people
      .filter(
        (person) =>
          person.username.toLowerCase() !== typed &&
          (!typed ||
            person.username.toLowerCase().includes(typed) ||
            (person.displayName ?? '').toLowerCase().includes(typed)),
      )
      .slice(0, 5);
  }, [data, typed]);
  return (
    <div className={styles.usernameField}>
      <Input
        label={t('createChallenge.target.usernameLabel')}
        name="challengedUsername"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={t('createChallenge.target.usernamePlaceholder')}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        status={error ? 'error' : 'hint'}
        message={error ?? t('createChallenge.target.usernameHint')}
      />
      {suggestions.length > 0 ? (
        <div className={styles.suggestions}>
          <p className={styles.suggestionsLabel}>{t('createChallenge.target.suggestions')}</p>
          <ul className={styles.chips}>
            {suggestions.map((person) => (
              <li key={person.id}>
                <button
                  type="button"
                  className={styles.suggestion}
                  onClick={() => onChange(person.username)}
                >
                  {person.displayName
                    ? `${person.displayName} (@${person.username})`
                    : `@${person.username}`}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

type Created = { slug: string; challengeName: string }[];

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
        <h1 id={titleId} className={layout.panelTitle}>
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

/** What a successful createChallenge made: one challenge per target, each with its link. */
function CreatedPanel({ created }: { created: Created }) {
  const { t } = useTranslation();
  const titleId = useId();
  const copyLink = useCopyChallengeLink();
  return (
    <section className={layout.panel} aria-labelledby={titleId}>
      <div className={styles.createdHeader}>
        <span className={styles.createdIcon} aria-hidden="true">
          <CheckIcon size={24} />
        </span>
        <div className={layout.panelHeader}>
          <h1 id={titleId} className={layout.panelTitle}>
            {t('createChallenge.created.title', { count: created.length })}
          </h1>
          <p className={layout.panelText}>{t('createChallenge.created.text')}</p>
        </div>
      </div>
      <ul className={styles.createdList}>
        {created.map((challenge) => (
          <li key={challenge.slug} className={styles.createdItem}>
            <Link to={`/challenge/${encodeURIComponent(challenge.slug)}/detail`}>
              {challenge.challengeName}
            </Link>
            <Button variant="secondary" size="sm" onClick={() => void copyLink(challenge.slug)}>
              {t('challenge.share.copy')}
            </Button>
          </li>
        ))}
      </ul>
      <div className={layout.formActions}>
        <ButtonLink to="/challenge-dashboard" variant="secondary">
          {t('createChallenge.created.dashboard')}
        </ButtonLink>
        <ButtonLink to="/challenge/create/step-1" variant="action-gradient">
          {t('createChallenge.created.another')}
        </ButtonLink>
      </div>
    </section>
  );
}
