import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/Button';
import { Modal } from '../../../ui/Modal';
import { useModalRoute } from '../hooks/useModalRoute';
import styles from './AuthDialogs.module.css';

/** Sign-up completion (username, birthday, password, terms) arrives with the sign-up issue. */
export function CompleteAccountDialog({ open }: { open: boolean }) {
  const { t } = useTranslation();
  const { closeModal } = useModalRoute();
  return (
    <Modal
      open={open}
      onClose={closeModal}
      size="sm"
      persistent
      title={t('auth.completeAccount.title')}
      footer={
        <Button variant="secondary" onClick={closeModal}>
          {t('auth.completeAccount.close')}
        </Button>
      }
    >
      <p className={styles.lead}>{t('auth.completeAccount.placeholder')}</p>
    </Modal>
  );
}
