import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/dates';
import { errorText } from '../../../lib/errorMessages';
import { cx } from '../../../lib/cx';
import { formatAmount } from '../../../lib/money';
import { Button } from '../../../ui/Button';
import { Notice } from '../../../ui/Notice';
import layout from '../../../ui/layout.module.css';
import type { EscrowHold } from '../graphql/EscrowReconciliation';
import type { MoneyTotals } from '../graphql/MoneyTotals';
import { useGetEscrowReconciliation } from '../hooks/useGetEscrowReconciliation';
import { useGetMoneyTotals } from '../hooks/useGetMoneyTotals';
import { ColumnHeaders, Loading } from './ModeratorParts';
import styles from './Moderator.module.css';

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
          <Notice tone="success">
            <p>{t('moderator.money.escrow.allMatch')}</p>
          </Notice>
          {checked}
        </>
      );
    }
    return (
      <>
        <Notice tone="warning">
          <p>{t('moderator.money.escrow.mismatch')}</p>
        </Notice>
        <HoldList
          title={t('moderator.money.escrow.holdsWithoutLiveChallenge')}
          hint={t('moderator.money.escrow.holdsWithoutLiveChallengeHint')}
          holds={holdsWithoutLiveChallenge}
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
    </section>
  );
}

function HoldList({ title, hint, holds }: { title: string; hint: string; holds: EscrowHold[] }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const columns = {
    challenge: t('moderator.money.escrow.columns.challenge'),
    owner: t('moderator.money.escrow.columns.owner'),
    amount: t('moderator.money.escrow.columns.amount'),
    since: t('moderator.money.escrow.columns.since'),
    status: t('moderator.money.escrow.columns.status'),
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
                <tr key={`${hold.challengeId}-${hold.ownerId}`} role="row">
                  <td role="cell" data-label={columns.challenge}>
                    <HoldChallenge hold={hold} />
                  </td>
                  <td role="cell" data-label={columns.owner}>
                    @{hold.owner.username}
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
