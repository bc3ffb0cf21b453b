import { useTranslation } from 'react-i18next';
import { errorText } from '../../../../lib/errorMessages';
import { formatAmount } from '../../../../lib/money';
import { describeFailure, failureIdentifier } from '../../../../lib/mutationOutcome';
import type { PayoutRequest } from '../../graphql/PayoutRequests';
import { useSetPayoutRequestAsCompleted } from '../../hooks/useSetPayoutRequestAsCompleted';
import { PayoutConfirmDialog } from './PayoutConfirmDialog';
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
    <PayoutConfirmDialog
      payout={payout}
      amount={amount}
      title={t('moderator.payouts.confirmTitle')}
      text={t('moderator.payouts.confirmText')}
      confirmLabel={t('moderator.payouts.confirm')}
      loading={loading}
      onClose={onClose}
      onConfirm={() => void confirm()}
    />
  );
}
