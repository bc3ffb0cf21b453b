import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure } from '../../../lib/mutationOutcome';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button, ButtonLink } from '../../../ui/Button';
import { AlertIcon, LockIcon } from '../../../ui/icons';
import { Modal } from '../../../ui/Modal';
import layout from '../../../ui/layout.module.css';
import { useToasts } from '../../../ui/toast/Toasts';
import { useLogoutUser } from '../../auth/hooks/useLogoutUser';
import { useDeleteUser } from '../hooks/useDeleteUser';
import styles from './Settings.module.css';

/** /settings/edit-account: the password, and deleting the account. */
export function EditAccountPage() {
  const { t } = useTranslation();
  usePageMeta(`${t('settings.sections.edit-account.title')} · ${t('settings.title')}`);
  const passwordTitleId = useId();
  const deleteTitleId = useId();
  const [confirming, setConfirming] = useState(false);

  return (
    <div className={styles.sections}>
      <section className={layout.panelLarge} aria-labelledby={passwordTitleId}>
        <div className={layout.panelHeader}>
          <h2 id={passwordTitleId} className={layout.panelTitle}>
            {t('settings.password.title')}
          </h2>
          <p className={layout.panelText}>{t('settings.account.passwordText')}</p>
        </div>
        <div>
          <ButtonLink
            to="/settings/change-password"
            variant="secondary"
            iconStart={<LockIcon size={18} />}
          >
            {t('settings.account.changePassword')}
          </ButtonLink>
        </div>
      </section>

      <section
        className={`${layout.panelLarge} ${styles.dangerCard}`}
        aria-labelledby={deleteTitleId}
      >
        <div className={layout.panelHeader}>
          <h2 id={deleteTitleId} className={`${layout.panelTitle} ${styles.dangerTitle}`}>
            {t('settings.account.deleteTitle')}
          </h2>
          <p className={layout.panelText}>{t('settings.account.deleteText')}</p>
        </div>
        <ul className={styles.list}>
          <li>{t('settings.account.deleteRuleDelay')}</li>
          <li>{t('settings.account.deleteRuleWallet')}</li>
        </ul>
        <div>
          <Button className={styles.danger} onClick={() => setConfirming(true)}>
            {t('settings.account.deleteButton')}
          </Button>
        </div>
      </section>

      <DeleteAccountDialog open={confirming} onClose={() => setConfirming(false)} />
    </div>
  );
}

function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const toasts = useToasts();
  const { deleteUser, loading } = useDeleteUser();
  const { logout } = useLogoutUser();
  const [refusal, setRefusal] = useState<{ text: string; wallet: boolean } | null>(null);

  const close = () => {
    setRefusal(null);
    onClose();
  };

  const confirm = async () => {
    setRefusal(null);
    const outcome = await deleteUser();
    if (outcome.ok) {
      onClose();
      toasts.info(t('settings.account.deleteRequested'));
      await logout();
      return;
    }
    const identifier = outcome.status?.identifier ?? null;
    const text = describeFailure(t, outcome);
    if (text) {
      setRefusal({
        text,
        wallet:
          identifier === 'wallet_contains_money' || identifier === 'user_contains_open_payouts',
      });
    }
  };

  return (
    <Modal
      open={open}
      onClose={close}
      size="sm"
      title={t('settings.account.confirmTitle')}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={loading}>
            {t('settings.account.keep')}
          </Button>
          <Button className={styles.danger} onClick={() => void confirm()} loading={loading}>
            {t('settings.account.confirmButton')}
          </Button>
        </>
      }
    >
      <div className={styles.sections}>
        <p>{t('settings.account.confirmText')}</p>
        {refusal ? (
          <div className={layout.alert} role="alert">
            <AlertIcon size={20} />
            <div className={layout.alertBody}>
              <p>{refusal.text}</p>
              {refusal.wallet ? (
                <div>
                  <ButtonLink to="/wallet" variant="secondary" size="sm">
                    {t('settings.account.toWallet')}
                  </ButtonLink>
                </div>
              ) : null}
            </div>
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
