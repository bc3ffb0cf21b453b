import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../../lib/errorMessages';
import { describeFailure } from '../../../lib/mutationOutcome';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button } from '../../../ui/Button';
import { AlertIcon, MailIcon } from '../../../ui/icons';
import layout from '../../../ui/layout.module.css';
import { PageHeader } from '../../../ui/PageHeader';
import { PageLoader } from '../../../ui/PageLoader';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import { useToasts } from '../../../ui/toast/Toasts';
import type { InvitationOptOut } from '../graphql/InvitationOptOut';
import { useGetInvitationOptOut, useUpdateInvitationOptOut } from '../hooks/useInvitationOptOut';
import styles from './Notifications.module.css';

/**
 * /email-opt-out: reached from the link at the bottom of an invitation to look at a challenge
 * (`?token=`, signed for the invited address, docs/adr/0074). No account or log-in needed: it
 * stops invitations to that address, or lets them come again. Nothing changes until a button is
 * pressed (a mail scanner opening the link changes nothing).
 */
export function InvitationOptOutPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.invitationOptOut.title'));
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() || null;
  if (!token) {
    return (
      <PagePlaceholder
        icon={<MailIcon size={28} />}
        title={t('pages.invitationOptOut.title')}
        description={t('notifications.optOut.noLink')}
      />
    );
  }
  return (
    <div className={styles.page}>
      <PageHeader
        title={t('pages.invitationOptOut.title')}
        subtitle={t('notifications.optOut.subtitle')}
      />
      <div className={styles.narrow}>
        <OptOutPanel token={token} />
      </div>
    </div>
  );
}

function OptOutPanel({ token }: { token: string }) {
  const { t } = useTranslation();
  const { optOut, failure, loading, refetch } = useGetInvitationOptOut(token);
  if (loading) return <PageLoader />;
  if (optOut) return <OptOutChoice token={token} initial={optOut} />;
  const invalid = failure?.identifier === 'unauthorized';
  return (
    <div className={layout.alert} role="alert">
      <AlertIcon size={20} />
      <div className={layout.alertBody}>
        <p>
          {invalid
            ? t('notifications.optOut.linkInvalid')
            : failure
              ? errorText(t, failure.identifier, failure.message)
              : t('notifications.optOut.loadFailed')}
        </p>
        {invalid ? null : (
          <div className={styles.alertActions}>
            <Button variant="secondary" size="sm" onClick={refetch}>
              {t('notifications.retry')}
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}

function OptOutChoice({ token, initial }: { token: string; initial: InvitationOptOut }) {
  const { t } = useTranslation();
  const toasts = useToasts();
  const { update, loading } = useUpdateInvitationOptOut(token);
  const [state, setState] = useState(initial);

  const choose = async (optedOut: boolean) => {
    const outcome = await update(optedOut);
    if (outcome.ok && outcome.result.invitationOptOut) {
      setState(outcome.result.invitationOptOut);
      toasts.success(t(optedOut ? 'notifications.optOut.stopped' : 'notifications.optOut.resumed'));
      return;
    }
    if (!outcome.ok) {
      const text = describeFailure(t, outcome);
      if (text) toasts.error(text);
    }
  };

  return (
    <section className={layout.panelLarge} aria-labelledby="invitation-opt-out-title">
      <div className={layout.panelHeader}>
        <h2 id="invitation-opt-out-title" className={layout.panelTitle}>
          {t('notifications.optOut.formTitle')}
        </h2>
        <p className={styles.address}>{state.email}</p>
      </div>
      <p>{state.optedOut ? t('notifications.optOut.isOff') : t('notifications.optOut.isOn')}</p>
      <div className={styles.alertActions}>
        {state.optedOut ? (
          <Button variant="secondary" loading={loading} onClick={() => void choose(false)}>
            {t('notifications.optOut.resume')}
          </Button>
        ) : (
          <Button variant="primary" loading={loading} onClick={() => void choose(true)}>
            {t('notifications.optOut.stop')}
          </Button>
        )}
      </div>
      <p className={styles.muted}>{t('notifications.optOut.account')}</p>
    </section>
  );
}
