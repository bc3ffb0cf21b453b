import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/dates';
import { errorText } from '../../../lib/errorMessages';
import { cx } from '../../../lib/cx';
import { formatAmount } from '../../../lib/money';
import { describeFailure, failureIdentifier } from '../../../lib/mutationOutcome';
import { Button } from '../../../ui/Button';
import { Notice, type NoticeTone } from '../../../ui/Notice';
import { SelectField } from '../../../ui/SelectField';
import layout from '../../../ui/layout.module.css';
import type { EscrowHold } from '../graphql/EscrowReconciliation';
import type { MoneyTotals } from '../graphql/MoneyTotals';
import type { EscrowResolution } from '../graphql/ResolveEscrowHold';
import { useGetEscrowReconciliation } from '../hooks/useGetEscrowReconciliation';
import { useGetMoneyTotals } from '../hooks/useGetMoneyTotals';
import { useResolveEscrowHold } from '../hooks/useResolveEscrowHold';
import { ColumnHeaders, Loading } from './ModeratorParts';
import { REASON_MAX, ReasonDialog } from './ReasonDialog';
import styles from './Moderator.module.css';

type Message = { tone: NoticeTone; title?: string; text: string };

const FIGURES = [
  'walletSum',
  'totalMoneyTopUps',
  'totalMoneyPayouts',
] as const satisfies ReadonlyArray<keyof MoneyTotals>;

/** Money statistics: the ledger's totals and the escrow check, for staff. */
export function MoneyStatisticsPanel() {
  const { t } = useTranslation();
  const titleId = useId();
  const totals = useGetMoneyTotals();
  const escrow = useGetEscrowReconciliation();
  const refreshing = totals.fetching || escrow.fetching;

  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <div className={styles.sectionHeaderRow}>
        <div className={layout.panelHeader}>
          <h2 id={titleId} className={styles.sectionTitle}>
            {t('moderator.money.title')}
          </h2>
          <p className={styles.sectionText}>{t('moderator.money.text')}</p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          loading={refreshing}
          onClick={() => {
            totals.refetch();
            escrow.refetch();
          }}
        >
          {t('moderator.money.refresh')}
        </Button>
      </div>
      <Totals state={totals} />
      <Escrow state={escrow} />
    </section>
  );
}

function Totals({ state }: { state: ReturnType<typeof useGetMoneyTotals> }) {
  const { t, i18n } = useTranslation();
  if (state.loading) return <Loading />;
  if (!state.totals) {
    return (
      <Notice tone="error" title={t('moderator.money.loadFailed')}>
        {state.failure ? (
          <p>{errorText(t, state.failure.identifier, state.failure.message)}</p>
        ) : null}
      </Notice>
    );
  }
  const { totals } = state;
  const balanced = Math.round(totals.totalBalance) === 0;
  return (
    <div className={styles.stats}>
      {FIGURES.map((figure) => (
        <section key={figure} className={styles.stat} aria-label={t(`moderator.money.${figure}`)}>
          <h3 className={styles.statLabel}>{t(`moderator.money.${figure}`)}</h3>
          <p className={styles.statValue}>{formatAmount(totals[figure], i18n.language)}</p>
          <p className={styles.statHint}>{t(`moderator.money.${figure}Hint`)}</p>
        </section>
      ))}
      <section
        className={cx(styles.stat, balanced ? styles.statOk : styles.statWarning)}
        aria-label={t('moderator.money.totalBalance')}
      >
        <h3 className={styles.statLabel}>{t('moderator.money.totalBalance')}</h3>
        <p className={styles.statValue}>{formatAmount(totals.totalBalance, i18n.language)}</p>
        <p className={styles.statHint}>
          {balanced ? t('moderator.money.balanced') : t('moderator.money.unbalanced')}
        </p>
      </section>
    </div>
  );
}

function Escrow({ state }: { state: ReturnType<typeof useGetEscrowReconciliation> }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const [resolving, setResolving] = useState<EscrowHold | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const finish = (result: Message) => {
    setResolving(null);
    setMessage(result);
    state.refetch();
  };
  const notice = message ? (
    <Notice tone={message.tone} title={message.title}>
      <p>{message.text}</p>
    </Notice>
  ) : null;
  const body = () => {
    if (state.loading) return <Loading />;
    if (!state.reconciliation) {
      return (
        <Notice tone="error" title={t('moderator.money.escrow.loadFailed')}>
          {state.failure ? (
            <p>{errorText(t, state.failure.identifier, state.failure.message)}</p>
          ) : null}
        </Notice>
      );
    }
    const { holdsWithoutLiveChallenge, liveChallengesWithoutHold, checkedAt } =
      state.reconciliation;
    const checked = checkedAt ? (
      <p className={styles.secondary}>
        {t('moderator.money.escrow.checkedAt', {
          date: formatDate(checkedAt, i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
        })}
      </p>
    ) : null;
    if (holdsWithoutLiveChallenge.length === 0 && liveChallengesWithoutHold.length === 0) {
      return (
        <>
          {notice}
          <Notice tone="success">
            <p>{t('moderator.money.escrow.allMatch')}</p>
          </Notice>
          {checked}
        </>
      );
    }
    return (
      <>
        {notice}
        <Notice tone="warning">
          <p>{t('moderator.money.escrow.mismatch')}</p>
        </Notice>
        <HoldList
          title={t('moderator.money.escrow.holdsWithoutLiveChallenge')}
          hint={t('moderator.money.escrow.holdsWithoutLiveChallengeHint')}
          holds={holdsWithoutLiveChallenge}
          onResolve={(hold) => {
            setMessage(null);
            setResolving(hold);
          }}
        />
        <HoldList
          title={t('moderator.money.escrow.liveChallengesWithoutHold')}
          hint={t('moderator.money.escrow.liveChallengesWithoutHoldHint')}
          holds={liveChallengesWithoutHold}
        />
        {checked}
      </>
    );
  };
  return (
    <section className={layout.panel} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h3 id={titleId} className={styles.subTitle}>
          {t('moderator.money.escrow.title')}
        </h3>
        <p className={styles.sectionText}>{t('moderator.money.escrow.text')}</p>
      </div>
      {body()}
      {resolving ? (
        <ResolveHoldDialog
          key={`${resolving.challengeId}-${resolving.party}`}
          hold={resolving}
          onClose={() => setResolving(null)}
          onDone={finish}
        />
      ) : null}
    </section>
  );
}

function HoldList({
  title,
  hint,
  holds,
  onResolve,
}: {
  title: string;
  hint: string;
  holds: EscrowHold[];
  /** Rows staff may settle by hand (held stakes); none for live challenges without a hold. */
  onResolve?: (hold: EscrowHold) => void;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const columns = {
    challenge: t('moderator.money.escrow.columns.challenge'),
    owner: t('moderator.money.escrow.columns.owner'),
    amount: t('moderator.money.escrow.columns.amount'),
    since: t('moderator.money.escrow.columns.since'),
    status: t('moderator.money.escrow.columns.status'),
    reason: t('moderator.money.escrow.columns.reason'),
    ...(onResolve ? { action: t('moderator.money.escrow.columns.action') } : {}),
  };
  return (
    <section className={styles.holdList} aria-labelledby={titleId}>
      <h4 id={titleId} className={styles.holdTitle}>
        {title} <span className={styles.countBadge}>{holds.length}</span>
      </h4>
      <p className={styles.secondary}>{hint}</p>
      {holds.length === 0 ? (
        <p className={styles.secondary}>{t('moderator.money.escrow.none')}</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table} role="table" aria-labelledby={titleId}>
            <ColumnHeaders labels={Object.values(columns)} />
            <tbody role="rowgroup">
              {holds.map((hold) => (
                <tr key={`${hold.challengeId}-${hold.party}`} role="row">
                  <td role="cell" data-label={columns.challenge}>
                    <HoldChallenge hold={hold} />
                  </td>
                  <td role="cell" data-label={columns.owner}>
                    @{hold.owner.username}
                    {hold.party === 'challenged' ? (
                      <span className={styles.secondary}>
                        {t('moderator.money.escrow.challengedStake')}
                      </span>
                    ) : null}
                  </td>
                  <td role="cell" data-label={columns.amount} className={styles.money}>
                    {formatAmount(hold.amount, i18n.language)}
                  </td>
                  <td role="cell" data-label={columns.since}>
                    {formatDate(hold.createdAt, i18n.language, {
                      dateStyle: 'medium',
                      timeStyle: 'short',
                    })}
                  </td>
                  <td role="cell" data-label={columns.status}>
                    {hold.challengeStatus ?? t('moderator.money.escrow.unknownStatus')}
                  </td>
                  <td role="cell" data-label={columns.reason}>
                    <MismatchReason hold={hold} />
                  </td>
                  {onResolve ? (
                    <td role="cell" data-label={columns.action}>
                      <Button
                        variant="secondary"
                        size="sm"
                        onClick={() => onResolve(hold)}
                        aria-label={t('moderator.money.escrow.resolveFor', {
                          amount: formatAmount(hold.amount, i18n.language),
                          username: hold.owner.username,
                        })}
                      >
                        {t('moderator.money.escrow.resolve')}
                      </Button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * The challenge's name, linked to its page when the slug is known, with its id for looking it up;
 * only the id when the wallet never learnt more about it.
 */
function HoldChallenge({ hold }: { hold: EscrowHold }) {
  const name = hold.challengeName ?? hold.slug;
  if (!name) return <span className={styles.code}>{hold.challengeId}</span>;
  return (
    <>
      {hold.slug ? (
        <Link className={styles.rowLink} to={`/challenge/${encodeURIComponent(hold.slug)}/detail`}>
          {name}
        </Link>
      ) : (
        <span className={styles.primary}>{name}</span>
      )}
      <span className={cx(styles.secondary, styles.code)}>{hold.challengeId}</span>
    </>
  );
}

/** Why the row is reported; a date passed says which. */
function MismatchReason({ hold }: { hold: EscrowHold }) {
  const { t, i18n } = useTranslation();
  if (hold.reason === 'past_expiry' && hold.expiresAt) {
    return (
      <>
        {t('moderator.money.escrow.reasons.past_expiry')}
        <span className={styles.secondary}>
          {formatDate(hold.expiresAt, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}
        </span>
      </>
    );
  }
  return <>{t(`moderator.money.escrow.reasons.${hold.reason}`)}</>;
}

/**
 * Settles a reported stake by hand: back to whoever staked it, or to the challenge's other party
 * when wallet knows them. The dialog says who gets how much before staff confirm, and asks the
 * reason the audit log keeps. Every outcome closes it and is told in the panel.
 */
function ResolveHoldDialog({
  hold,
  onClose,
  onDone,
}: {
  hold: EscrowHold;
  onClose: () => void;
  onDone: (message: Message) => void;
}) {
  const { t, i18n } = useTranslation();
  const { resolveEscrowHold, loading } = useResolveEscrowHold();
  const [outcome, setOutcome] = useState<EscrowResolution>('release');
  const amount = formatAmount(hold.amount, i18n.language);
  const payee = outcome === 'capture' && hold.captureTo ? hold.captureTo : hold.owner;
  const consequence =
    outcome === 'release'
      ? t('moderator.money.escrow.releaseConsequence', { amount, username: payee.username })
      : t('moderator.money.escrow.captureConsequence', { amount, username: payee.username });

  const submit = async (reason: string) => {
    const result = await resolveEscrowHold({
      challengeId: hold.challengeId,
      party: hold.party,
      outcome,
      reason,
    });
    if (result.ok) {
      const text = t(
        outcome === 'release'
          ? 'moderator.money.escrow.released'
          : 'moderator.money.escrow.captured',
        { amount, username: payee.username },
      );
      onDone({ tone: 'success', text });
      return null;
    }
    if (failureIdentifier(result) === 'invalid_action') {
      onDone({
        tone: 'warning',
        title: t('moderator.money.escrow.notResolved'),
        text: t('moderator.money.escrow.noLongerReported'),
      });
      return null;
    }
    return describeFailure(t, result) ?? t('errors.generic_error');
  };

  return (
    <ReasonDialog
      title={t('moderator.money.escrow.resolveTitle')}
      submitLabel={t(
        outcome === 'release'
          ? 'moderator.money.escrow.releaseConfirm'
          : 'moderator.money.escrow.captureConfirm',
        { amount },
      )}
      cancelLabel={t('moderator.money.escrow.keepHeld')}
      size="sm"
      reasonLabel={t('moderator.money.escrow.resolveReason')}
      reasonHint={null}
      requiredMessage={t('moderator.money.escrow.resolveReasonRequired')}
      tooLongMessage={t('moderator.money.escrow.resolveReasonTooLong', { max: REASON_MAX })}
      lockWhileLoading
      loading={loading}
      onClose={onClose}
      onSubmit={submit}
    >
      <div className={styles.confirm}>
        <dl className={styles.facts}>
          <dt>{t('moderator.money.escrow.columns.challenge')}</dt>
          <dd>{hold.challengeName ?? hold.slug ?? hold.challengeId}</dd>
          <dt>{t('moderator.money.escrow.stakedBy')}</dt>
          <dd>@{hold.owner.username}</dd>
          <dt>{t('moderator.money.escrow.columns.amount')}</dt>
          <dd className={styles.money}>{amount}</dd>
          <dt>{t('moderator.money.escrow.columns.reason')}</dt>
          <dd>
            <MismatchReason hold={hold} />
          </dd>
        </dl>
        <SelectField
          label={t('moderator.money.escrow.outcome')}
          name="outcome"
          value={outcome}
          onChange={(event) => setOutcome(event.target.value as EscrowResolution)}
          status="hint"
          message={hold.captureTo ? null : t('moderator.money.escrow.nobodyToPay')}
        >
          <option value="release">
            {t('moderator.money.escrow.releaseTo', { username: hold.owner.username })}
          </option>
          {hold.captureTo ? (
            <option value="capture">
              {t('moderator.money.escrow.captureTo', { username: hold.captureTo.username })}
            </option>
          ) : null}
        </SelectField>
        <p role="status">{consequence}</p>
      </div>
    </ReasonDialog>
  );
}
