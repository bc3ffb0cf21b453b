import { useTranslation } from 'react-i18next';
import { formatIban } from '../../../../lib/iban';
import { Button } from '../../../../ui/Button';
import { Modal } from '../../../../ui/Modal';
import type { PayoutRequest } from '../../graphql/PayoutRequests';
import styles from '../Moderator.module.css';

/**
 * Asks before a payout action that moves money (mark as paid, release): who gets how much to
 * which account, what to check first, and one confirming button.
 */
export function PayoutConfirmDialog({
  payout,
  amount,
  title,
  text,
  confirmLabel,
  loading,
  onClose,
  onConfirm,
}: {
  payout: PayoutRequest | null;
  /** The payout's amount, formatted. */
  amount: string;
  title: string;
  text: string;
  confirmLabel: string;
  loading: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={payout !== null}
      onClose={() => (loading ? undefined : onClose())}
      persistent={loading}
      size="sm"
      title={title}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={loading}>
            {t('moderator.payouts.cancel')}
          </Button>
          <Button variant="primary" onClick={onConfirm} loading={loading}>
            {confirmLabel}
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
          <p>{text}</p>
        </div>
      ) : null}
    </Modal>
  );
}
