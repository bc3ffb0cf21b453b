import { useTranslation } from 'react-i18next';
import { errorText } from '../../../../lib/errorMessages';
import { formatIban } from '../../../../lib/iban';
import { formatAmount } from '../../../../lib/money';
import { describeFailure, failureIdentifier } from '../../../../lib/mutationOutcome';
import { Button } from '../../../../ui/Button';
import { Modal } from '../../../../ui/Modal';
import type { PayoutRequest } from '../../graphql/PayoutRequests';
import { useSetPayoutRequestAsCompleted } from '../../hooks/useSetPayoutRequestAsCompleted';
import styles from '../Moderator.module.css';
import { serverDetail, type Message } from './payoutMessage';

/** Asks before marking a payout as paid: it moves the money out of the wallet for good. */
export function MarkPaidDialog({
  payout,
  onClose,
  onDone,
}: {
  payout: PayoutRequest | null;
  onClose: () => void;
  onDone: (message: Message) => void;
}) {
  const { t, i18n } = useTranslation();
  const { setPayoutRequestAsCompleted, loading } = useSetPayoutRequestAsCompleted();
  const amount = payout ? formatAmount(payout.amount, i18n.language) : '';

  const confirm = async () => {
    if (!payout) return;
    const outcome = await setPayoutRequestAsCompleted(payout.id);
    if (outcome.ok) {
      onDone({
        tone: 'success',
        text: t('moderator.payouts.markedPaid', { name: payout.name, amount }),
      });
      return;
    }
    if (failureIdentifier(outcome) === 'payout_request_no_longer_open') {
      onDone({
        tone: 'warning',
        title: errorText(t, 'payout_request_no_longer_open'),
        text: t('moderator.payouts.noLongerOpen'),
      });
      return;
    }
    const text = describeFailure(t, outcome) ?? t('errors.generic_error');
    onDone({
      tone: 'error',
      title: t('moderator.payouts.markFailed'),
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
      title={t('moderator.payouts.confirmTitle')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={loading}>
            {t('moderator.payouts.cancel')}
          </Button>
          <Button variant="primary" onClick={() => void confirm()} loading={loading}>
            {t('moderator.payouts.confirm')}
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
          <p>{t('moderator.payouts.confirmText')}</p>
        </div>
      ) : null}
    </Modal>
  );
}
