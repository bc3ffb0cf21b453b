import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../../../lib/money';
import { describeFailure } from '../../../../lib/mutationOutcome';
import { Button } from '../../../../ui/Button';
import layout from '../../../../ui/layout.module.css';
import { Modal } from '../../../../ui/Modal';
import { useToasts } from '../../../../ui/toast/Toasts';
import type { ChallengeDetail } from '../../graphql/ChallengeBySlug';
import { useUpdateChallengeStatus } from '../../hooks/useChallengeActions';
import { nameOf } from '../ChallengeCard';
import styles from '../Challenge.module.css';
import { ReasonDialog } from './ReasonDialog';
import { type Role, isDuel, sideToJudge } from './roles';

/**
 * The judge's decision on a video in review (the owner's in a solo challenge, either party's on
 * the other's side of a duel): right under the banner, and an approval asks first, saying who
 * gets how much, because it pays at once and cannot be undone (issue 22, point 2).
 */
export function JudgeActions({
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
  const [dialog, setDialog] = useState<'approve' | 'reject' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { updateChallengeStatus, loading } = useUpdateChallengeStatus();
  const duelSide = sideToJudge(challenge, role);
  const solo = role === 'owner' && challenge.status === 'review' && !isDuel(challenge);
  if (!duelSide && !solo) return null;
  // Whose video this is: the other party in a duel, the challenged user in a solo challenge.
  const performer = role === 'challenged' ? challenge.owner : challenge.challengedUser;
  const name = performer ? nameOf(performer) : t('challenge.someone');
  const reward = formatAmount(challenge.challengeReward, i18n.language);

  const decide = async (next: 'completed' | 'referee', success: string, reason?: string) => {
    const outcome = await updateChallengeStatus({
      slug: challenge.slug,
      status: next,
      ...(reason ? { reason } : {}),
    });
    if (!outcome.ok) {
      setFailure(describeFailure(t, outcome));
      return false;
    }
    setFailure(null);
    setDialog(null);
    toasts.success(success);
    await refetch();
    return true;
  };

  return (
    <section className={layout.panel} aria-label={t('challenge.judge.title', { name })}>
      <h2 className={layout.panelTitle}>{t('challenge.judge.title', { name })}</h2>
      <p>{t('duel.sides.judgeText')}</p>
      <div className={styles.actions}>
        <Button variant="action-gradient" disabled={loading} onClick={() => setDialog('approve')}>
          {t('challenge.actions.approve')}
        </Button>
        <Button variant="secondary" disabled={loading} onClick={() => setDialog('reject')}>
          {t('challenge.actions.reject')}
        </Button>
      </div>
      <Modal
        open={dialog === 'approve'}
        onClose={() => (loading ? undefined : setDialog(null))}
        persistent={loading}
        size="sm"
        title={t('challenge.judge.confirmTitle', { name })}
        footer={
          <>
            <Button variant="secondary" disabled={loading} onClick={() => setDialog(null)}>
              {t('challenge.judge.keepJudging')}
            </Button>
            <Button
              variant="primary"
              loading={loading}
              onClick={() => void decide('completed', t('challenge.actions.approved'))}
            >
              {duelSide
                ? t('challenge.judge.confirmDuel')
                : t('challenge.judge.confirmPay', { name, amount: reward })}
            </Button>
          </>
        }
      >
        <p>
          {duelSide
            ? t('challenge.judge.duelText', {
                name,
                amount: reward,
                both: formatAmount(challenge.challengeReward * 2, i18n.language),
              })
            : t('challenge.judge.soloText', { name, amount: reward })}
        </p>
        <p>{t('challenge.judge.final')}</p>
        {failure ? <p role="alert">{failure}</p> : null}
      </Modal>
      <ReasonDialog
        open={dialog === 'reject'}
        kind="reject"
        loading={loading}
        failure={failure}
        onClose={() => {
          setDialog(null);
          setFailure(null);
        }}
        onSubmit={(reason) => decide('referee', t('challenge.actions.rejected'), reason)}
      />
    </section>
  );
}
