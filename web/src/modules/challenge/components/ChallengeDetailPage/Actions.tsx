import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatAmount } from '../../../../lib/money';
import { describeFailure, type MutationOutcome } from '../../../../lib/mutationOutcome';
import { Button, ButtonAnchor } from '../../../../ui/Button';
import { ChatIcon, MailIcon } from '../../../../ui/icons';
import layout from '../../../../ui/layout.module.css';
import { Modal } from '../../../../ui/Modal';
import { Notice } from '../../../../ui/Notice';
import { useToasts } from '../../../../ui/toast/Toasts';
import { useGetCurrentUser } from '../../../auth/hooks/useGetCurrentUser';
import { ReportButton } from '../../../moderation/components/ReportButton';
import { duplicateDraft } from '../../draft';
import type { ChallengeDetail } from '../../graphql/ChallengeBySlug';
import {
  useCancelChallenge,
  useUpdateChallenge,
  useUpdateChallengeStatus,
} from '../../hooks/useChallengeActions';
import { saveDraft } from '../../hooks/useChallengeDraft';
import { challengeUrl, useCopyChallengeLink } from '../../hooks/useCopyChallengeLink';
import { ShareByEmailDialog } from '../ShareByEmailDialog';
import styles from '../Challenge.module.css';
import { EditDialog } from './EditDialog';
import { ReasonDialog } from './ReasonDialog';
import type { Role } from './roles';

type Dialog = 'decline' | 'reject' | 'cancel' | 'edit' | null;

/**
 * The owner edits description, visibility and the end only while the challenge is open, as
 * challenge's `updateChallenge` allows: once accepted, the description is what was agreed
 * (docs/adr/0077).
 */
const EDIT_STATES = ['open'];
/** Accepted, or over: only the visibility may still change (docs/adr/0067, 0077). */
const VISIBILITY_STATES = [
  'accepted',
  'review',
  'referee',
  'completed',
  'failed',
  'refused',
  'cancelled',
  'expired',
];

export function Actions({
  challenge,
  role,
  refetch,
}: {
  challenge: ChallengeDetail;
  role: Role;
  refetch: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { updateChallengeStatus, loading: statusLoading } = useUpdateChallengeStatus();
  const { cancelChallenge, loading: cancelLoading } = useCancelChallenge();
  const status = challenge.status;
  const slug = challenge.slug;

  const settle = async (outcome: MutationOutcome<unknown>, success: string): Promise<boolean> => {
    if (outcome.ok) {
      setFailure(null);
      setDialog(null);
      toasts.success(success);
      await refetch();
      return true;
    }
    setFailure(describeFailure(t, outcome));
    return false;
  };

  const changeStatus = async (
    next: 'accepted' | 'refused' | 'completed' | 'referee',
    success: string,
    reason?: string,
  ) =>
    settle(
      await updateChallengeStatus({ slug, status: next, ...(reason ? { reason } : {}) }),
      success,
    );

  const copyLink = useCopyChallengeLink();
  const loggedIn = useGetCurrentUser().isLoggedIn;
  const [sharing, setSharing] = useState(false);
  const shareText = t('challenge.share.text', {
    name: challenge.challengeName,
    url: challengeUrl(slug),
  });
  const duplicate = () => {
    saveDraft(duplicateDraft(challenge));
    void navigate('/challenge/create/step-1');
  };

  const { updateChallenge, loading: updateLoading } = useUpdateChallenge();
  // Once accepted, what was agreed stays as it was; who may see it may change.
  const toggleVisibility = async () => {
    const visibility = challenge.visibility === 'private' ? 'public' : 'private';
    await settle(
      await updateChallenge({ slug, visibility }),
      t(`challenge.actions.madeVisibility.${visibility}`),
    );
  };

  const busy = statusLoading || cancelLoading || updateLoading;
  const canShare = !['cancelled', 'expired', 'refused', 'failed'].includes(status);
  // The owner invites the challenged person while they have not answered; nobody else invites.
  const canInvite = role === 'owner' && (status === 'open' || status === 'draft');
  return (
    <section className={layout.panel} aria-label={t('challenge.actions.title')}>
      <h2 className={layout.panelTitle}>{t('challenge.actions.title')}</h2>
      {failure ? (
        <Notice tone="error" title={t('challenge.actions.failed')}>
          <p>{failure}</p>
        </Notice>
      ) : null}
      {role === 'challenged' && status === 'open' ? (
        <div className={styles.actions}>
          <Button
            variant="action-gradient"
            loading={statusLoading}
            onClick={() => void changeStatus('accepted', t('challenge.actions.accepted'))}
          >
            {t('challenge.actions.accept')}
          </Button>
          <Button variant="secondary" disabled={busy} onClick={() => setDialog('decline')}>
            {t('challenge.actions.decline')}
          </Button>
        </div>
      ) : null}
      <div className={styles.actions}>
        {canShare ? (
          <Button variant="secondary" size="sm" onClick={() => void copyLink(slug)}>
            {t('challenge.share.copy')}
          </Button>
        ) : null}
        {canInvite ? (
          <ButtonAnchor
            variant="secondary"
            size="sm"
            href={`https://wa.me/?text=${encodeURIComponent(shareText)}`}
            target="_blank"
            rel="noopener noreferrer"
            iconStart={<ChatIcon size={16} />}
          >
            {t('challenge.share.whatsapp')}
          </ButtonAnchor>
        ) : null}
        {canShare && role === 'owner' ? (
          // The one e-mail action (issue 22, point 14): the platform's invitation, the owner's only
          // (the server refuses others); anyone copies the link.
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setSharing(true)}
            iconStart={<MailIcon size={16} />}
          >
            {t('challenge.shareEmail.button')}
          </Button>
        ) : null}
        <Button variant="secondary" size="sm" onClick={duplicate}>
          {t('challenge.actions.duplicate')}
        </Button>
        {role === 'owner' && EDIT_STATES.includes(status) ? (
          <Button variant="secondary" size="sm" disabled={busy} onClick={() => setDialog('edit')}>
            {t('challenge.actions.edit')}
          </Button>
        ) : null}
        {role === 'owner' && VISIBILITY_STATES.includes(status) ? (
          <Button
            variant="secondary"
            size="sm"
            loading={updateLoading}
            disabled={busy}
            onClick={() => void toggleVisibility()}
          >
            {challenge.visibility === 'private'
              ? t('challenge.actions.makePublic')
              : t('challenge.actions.makePrivate')}
          </Button>
        ) : null}
        {role === 'owner' && (status === 'open' || status === 'draft') ? (
          <Button variant="tertiary" size="sm" disabled={busy} onClick={() => setDialog('cancel')}>
            {t('challenge.actions.cancel')}
          </Button>
        ) : null}
        {loggedIn && role !== 'owner' ? (
          <ReportButton
            entityType="Challenge"
            entityId={challenge.id}
            name={challenge.challengeName}
          />
        ) : null}
      </div>

      <ReasonDialog
        open={dialog === 'decline'}
        kind="decline"
        loading={statusLoading}
        failure={failure}
        onClose={() => {
          setDialog(null);
          setFailure(null);
        }}
        onSubmit={(reason) => changeStatus('refused', t('challenge.actions.declined'), reason)}
      />
      <ShareByEmailDialog slug={slug} open={sharing} onClose={() => setSharing(false)} />
      <Modal
        open={dialog === 'cancel'}
        onClose={() => setDialog(null)}
        title={t('challenge.cancel.title')}
        description={t('challenge.cancel.text', {
          amount: formatAmount(challenge.challengeReward, i18n.language),
        })}
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setDialog(null)}>
              {t('challenge.cancel.keep')}
            </Button>
            <Button
              variant="primary"
              loading={cancelLoading}
              onClick={async () =>
                settle(await cancelChallenge(slug), t('challenge.actions.cancelled'))
              }
            >
              {t('challenge.cancel.confirm')}
            </Button>
          </>
        }
      >
        {failure ? <p role="alert">{failure}</p> : null}
      </Modal>
      {/* Closed once the challenge is accepted meanwhile (the page polls): no description then. */}
      {dialog === 'edit' && EDIT_STATES.includes(status) ? (
        <EditDialog
          challenge={challenge}
          onClose={() => setDialog(null)}
          onSaved={async () => {
            setDialog(null);
            toasts.success(t('challenge.edit.saved'));
            await refetch();
          }}
          onAccepted={async (reason) => {
            // Accepted meanwhile: the page shows it (no Edit any more) and why nothing changed.
            setDialog(null);
            setFailure(reason);
            await refetch();
          }}
        />
      ) : null}
    </section>
  );
}
