import { useTranslation } from 'react-i18next';
import { errorText } from '../../../../lib/errorMessages';
import { formatAmount } from '../../../../lib/money';
import { describeFailure, failureIdentifier } from '../../../../lib/mutationOutcome';
import type { PayoutRequest } from '../../graphql/PayoutRequests';
import { useCancelPayoutRequest } from '../../hooks/useCancelPayoutRequest';
import styles from '../Moderator.module.css';
import { REASON_MAX, ReasonDialog } from '../ReasonDialog';
import { serverDetail, type Message } from './payoutMessage';

/**
 * Asks before cancelling a payout, with the reason staff must give: the frozen money goes back
 * to the user's available balance, and the payout can no longer be paid.
 */
export function CancelPayoutDialog({
  payout,
  onClose,
  onDone,
}: {
  payout: PayoutRequest;
  onClose: () => void;
  onDone: (message: Message) => void;
}) {
  const { t, i18n } = useTranslation();
  const { cancelPayoutRequest, loading } = useCancelPayoutRequest();
  const amount = formatAmount(payout.amount, i18n.language);

  // Every outcome is told in the panel (and a toast), as for marking paid: the dialog closes.
  const submit = async (reason: string) => {
    const outcome = await cancelPayoutRequest(payout.id, reason);
    if (outcome.ok) {
      const text = t('moderator.payouts.cancelled', { name: payout.name, amount });
      onDone({ tone: 'success', text });
      return null;
    }
    if (failureIdentifier(outcome) === 'payout_request_no_longer_open') {
      onDone({
        tone: 'warning',
        title: errorText(t, 'payout_request_no_longer_open'),
        text: t('moderator.payouts.noLongerOpen'),
      });
      return null;
    }
    const text = describeFailure(t, outcome) ?? t('errors.generic_error');
    onDone({
      tone: 'error',
      title: t('moderator.payouts.cancelFailed'),
      text,
      detail: serverDetail(outcome, text),
    });
    return null;
  };

  return (
    <ReasonDialog
      title={t('moderator.payouts.cancelTitle')}
      submitLabel={t('moderator.payouts.cancelConfirm')}
      cancelLabel={t('moderator.payouts.keep')}
      size="sm"
      reasonLabel={t('moderator.payouts.cancelReason')}
      reasonHint={null}
      requiredMessage={t('moderator.payouts.cancelReasonRequired')}
      tooLongMessage={t('moderator.payouts.cancelReasonTooLong', { max: REASON_MAX })}
      lockWhileLoading
      loading={loading}
      onClose={onClose}
      onSubmit={submit}
    >
      <div className={styles.confirm}>
        <dl className={styles.facts}>
          <dt>{t('moderator.payouts.columns.user')}</dt>
          <dd>@{payout.user.username}</dd>
          <dt>{t('moderator.payouts.columns.accountHolder')}</dt>
          <dd>{payout.name}</dd>
          <dt>{t('moderator.payouts.columns.amount')}</dt>
          <dd className={styles.money}>{amount}</dd>
        </dl>
        <p>{t('moderator.payouts.cancelText')}</p>
      </div>
    </ReasonDialog>
  );
}
