import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { appConfig } from '../../../app/config';
import { formatDate } from '../../../lib/dates';
import { Modal } from '../../../ui/Modal';
import { useModalRoute } from '../hooks/useModalRoute';
import { useSuspensionNotice } from '../suspension';
import styles from './AuthDialogs.module.css';

/**
 * A suspended (banned) person is told so (issue 22, point 4): since when and why (staff's reason,
 * known once they proved who they are at log-in), what happens to their money, and how to reach
 * support.
 */
export function SuspendedDialog({ open }: { open: boolean }) {
  const { t, i18n } = useTranslation();
  const { closeModal } = useModalRoute();
  const notice = useSuspensionNotice();
  const suspension = notice?.kind === 'known' ? notice.suspension : null;
  return (
    <Modal open={open} onClose={closeModal} size="sm" title={t('auth.suspended.title')}>
      <div className={styles.form}>
        {suspension ? (
          <>
            {suspension.since ? (
              <p>
                {t('auth.suspended.since', {
                  date: formatDate(suspension.since, i18n.language, { dateStyle: 'long' }),
                })}
              </p>
            ) : null}
            <p>
              {suspension.reason ? (
                <Trans
                  i18nKey="auth.suspended.reason"
                  values={{ reason: suspension.reason }}
                  components={{ strong: <strong /> }}
                />
              ) : (
                t('auth.suspended.noReason')
              )}
            </p>
          </>
        ) : (
          <p>{t('auth.suspended.reasonAtLogIn')}</p>
        )}
        <p>{t('auth.suspended.money')}</p>
        <p>{t('auth.suspended.cannot')}</p>
        <p>
          <Trans
            i18nKey="auth.suspended.support"
            components={{ a: <Link to={appConfig.contactPath} onClick={closeModal} /> }}
          />
        </p>
      </div>
    </Modal>
  );
}
