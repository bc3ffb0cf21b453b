import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../../../lib/money';
import { describeFailure } from '../../../../lib/mutationOutcome';
import type { PayoutRequest } from '../../graphql/PayoutRequests';
import { useReleasePayoutRequest } from '../../hooks/useReleasePayoutRequest';
import { PayoutConfirmDialog } from './PayoutConfirmDialog';
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
    <PayoutConfirmDialog
      payout={payout}
      amount={amount}
      title={t('moderator.payouts.releaseTitle')}
      text={t('moderator.payouts.releaseText')}
      confirmLabel={t('moderator.payouts.releaseConfirm')}
      loading={loading}
      onClose={onClose}
      onConfirm={() => void confirm()}
    />
  );
}
