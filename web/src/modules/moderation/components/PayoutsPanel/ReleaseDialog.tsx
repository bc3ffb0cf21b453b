import { useTranslation } from 'react-i18next';
import { formatIban } from '../../../../lib/iban';
import { formatAmount } from '../../../../lib/money';
import { describeFailure } from '../../../../lib/mutationOutcome';
import { Button } from '../../../../ui/Button';
import { Modal } from '../../../../ui/Modal';
import type { PayoutRequest } from '../../graphql/PayoutRequests';
import { useReleasePayoutRequest } from '../../hooks/useReleasePayoutRequest';
import styles from '../Moderator.module.css';
import { serverDetail, type Message } from './payoutMessage';

/** Asks before releasing a held payout: who gets how much, and what to check first. */
export function ReleaseDialog({
  payout,
  onClose,
  onDone,
}: {
  payout: PayoutRequest | null;
  onClose: () => void;
  onDone: (message: Message) => void;
}) {
  const { t, i18n } = useTranslation();
  const { releasePayoutRequest, loading } = useReleasePayoutRequest();
  const amount = payout ? formatAmount(payout.amount, i18n.language) : '';

  const confirm = async () => {
    if (!payout) return;
    const outcome = await releasePayoutRequest(payout.id);
    if (outcome.ok) {
      const text = t('moderator.payouts.released', { name: payout.name, amount });
      onDone({ tone: 'success', text });
      return;
    }
    const text = describeFailure(t, outcome) ?? t('errors.generic_error');
    onDone({
      tone: 'error',
      title: t('moderator.payouts.releaseFailed'),
      text,
      detail: serverDetail(outcome, text),
    });
  };

  return (
    <Modal
      open={payout !== null}
      onClose={() => (loading ? undefined : onClose())}
      persistent={loading}
      size="sm"
      title={t('moderator.payouts.releaseTitle')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={loading}>
            {t('moderator.payouts.cancel')}
          </Button>
          <Button variant="primary" onClick={() => void confirm()} loading={loading}>
            {t('moderator.payouts.releaseConfirm')}
          </Button>
        </>
      }
    >
      {payout ? (
        <div className={styles.confirm}>
          <dl className={styles.facts}>
            <dt>{t('moderator.payouts.columns.user')}</dt>
            <dd>@{payout.user.username}</dd>
            <dt>{t('moderator.payouts.columns.accountHolder')}</dt>
            <dd>{payout.name}</dd>
            <dt>{t('moderator.payouts.columns.amount')}</dt>
            <dd className={styles.money}>{amount}</dd>
            <dt>{t('moderator.payouts.columns.iban')}</dt>
            <dd className={styles.iban}>{formatIban(payout.accountNumber)}</dd>
          </dl>
          <p>{t('moderator.payouts.releaseText')}</p>
        </div>
      ) : null}
    </Modal>
  );
}
