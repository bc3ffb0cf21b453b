import { useTranslation } from 'react-i18next';
import { countryName } from '../../../../lib/countries';
import { formatDate } from '../../../../lib/dates';
import { formatIban } from '../../../../lib/iban';
import { formatAmount } from '../../../../lib/money';
import { Button } from '../../../../ui/Button';
import type { PayoutRequest } from '../../graphql/PayoutRequests';
import { ColumnHeaders } from '../ModeratorParts';
import styles from '../Moderator.module.css';

const STATUSES = ['open', 'exported', 'done', 'cancelled'] as const;

/** The payouts of one page, with the actions each one's state allows. */
export function PayoutTable({
  items,
  busy,
  onMarkPaid,
  onCancel,
  onRelease,
}: {
  items: PayoutRequest[];
  busy: boolean;
  onMarkPaid: (payout: PayoutRequest) => void;
  onCancel: (payout: PayoutRequest) => void;
  onRelease: (payout: PayoutRequest) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const date = (value: string) =>
    formatDate(value, language, { dateStyle: 'medium', timeStyle: 'short' });
  const columns = {
    user: t('moderator.payouts.columns.user'),
    accountHolder: t('moderator.payouts.columns.accountHolder'),
    amount: t('moderator.payouts.columns.amount'),
    iban: t('moderator.payouts.columns.iban'),
    created: t('moderator.payouts.columns.created'),
    status: t('moderator.payouts.columns.status'),
    actions: t('moderator.payouts.columns.actions'),
  };
  return (
    <div className={styles.tableWrap}>
      {/* Explicit roles keep the table semantics when small screens restyle rows as cards. */}
      <table className={styles.table} role="table" aria-busy={busy}>
        <caption className="visually-hidden">{t('moderator.payouts.caption')}</caption>
        <ColumnHeaders labels={Object.values(columns)} />
        <tbody role="rowgroup">
          {items.map((payout) => (
            <tr key={payout.id} role="row">
              <td role="cell" data-label={columns.user}>
                <span className={styles.primary}>@{payout.user.username}</span>
                {payout.user.displayName ? (
                  <span className={styles.secondary}>{payout.user.displayName}</span>
                ) : null}
              </td>
              <td role="cell" data-label={columns.accountHolder}>
                <span className={styles.primary}>{payout.name}</span>
                <span className={styles.secondary}>
                  {[
                    payout.address,
                    `${payout.postalCode} ${payout.city}`.trim(),
                    countryName(payout.countryCode, language),
                  ]
                    .filter(Boolean)
                    .join(', ')}
                </span>
              </td>
              <td role="cell" data-label={columns.amount} className={styles.money}>
                {formatAmount(payout.amount, language)}
              </td>
              <td role="cell" data-label={columns.iban}>
                <span className={styles.iban}>{formatIban(payout.accountNumber)}</span>
                <span className={styles.secondary}>{payout.bic}</span>
              </td>
              <td role="cell" data-label={columns.created}>
                {date(payout.createdAt)}
              </td>
              <td role="cell" data-label={columns.status}>
                {payout.heldForReview ? (
                  // Why it waits and until when (issue 22, point 1): not "Open" like the others.
                  <>
                    <span className={styles.badgeHeld}>{t('moderator.payouts.held')}</span>
                    <span className={styles.secondary}>
                      {t('moderator.payouts.heldWhy', {
                        date: payout.ibanChangedAt ? date(payout.ibanChangedAt) : '',
                      })}
                    </span>
                  </>
                ) : (
                  <span
                    className={
                      payout.status === 'open' || payout.status === 'exported'
                        ? styles.badgeOpen
                        : styles.badgeDone
                    }
                  >
                    {(STATUSES as readonly string[]).includes(payout.status)
                      ? t(`moderator.payouts.status.${payout.status as (typeof STATUSES)[number]}`)
                      : payout.status}
                  </span>
                )}
                {payout.cancelledAt ? (
                  <span className={styles.secondary}>
                    {t('moderator.payouts.cancelledAt', { date: date(payout.cancelledAt) })}
                    {payout.cancelReason ? `: ${payout.cancelReason}` : null}
                  </span>
                ) : payout.completedAt ? (
                  <span className={styles.secondary}>
                    {t('moderator.payouts.paidAt', { date: date(payout.completedAt) })}
                  </span>
                ) : payout.exportedAt ? (
                  <span className={styles.secondary}>
                    {t('moderator.payouts.exportedAt', { date: date(payout.exportedAt) })}
                  </span>
                ) : null}
              </td>
              <td role="cell" data-label={columns.actions} className={styles.actionsCell}>
                {payout.heldForReview && payout.status === 'open' ? (
                  <Button
                    variant="primary"
                    size="sm"
                    onClick={() => onRelease(payout)}
                    aria-label={t('moderator.payouts.releaseFor', {
                      name: payout.name,
                      amount: formatAmount(payout.amount, language),
                    })}
                  >
                    {t('moderator.payouts.release')}
                  </Button>
                ) : null}
                {payout.status === 'exported' ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => onMarkPaid(payout)}
                    aria-label={t('moderator.payouts.markPaidFor', {
                      name: payout.name,
                      amount: formatAmount(payout.amount, language),
                    })}
                  >
                    {t('moderator.payouts.markPaid')}
                  </Button>
                ) : null}
                {payout.status === 'open' || payout.status === 'exported' ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => onCancel(payout)}
                    aria-label={t('moderator.payouts.cancelPayoutFor', {
                      name: payout.name,
                      amount: formatAmount(payout.amount, language),
                    })}
                  >
                    {t('moderator.payouts.cancelPayout')}
                  </Button>
                ) : (
                  <span className={styles.secondary}>—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
