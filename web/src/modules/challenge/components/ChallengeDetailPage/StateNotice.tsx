import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../../lib/dates';
import { formatAmount } from '../../../../lib/money';
import { Notice } from '../../../../ui/Notice';
import type { ChallengeDetail } from '../../graphql/ChallengeBySlug';
import styles from '../Challenge.module.css';
import { duelState } from './DuelSides';
import { type Role, isDuel, sideOf } from './roles';

/** What the state means for this viewer, with the reasons and deadlines that apply. */
export function StateNotice({
  challenge,
  role,
  videoIn,
  ownerName,
  challengedName,
}: {
  challenge: ChallengeDetail;
  role: Role;
  videoIn: boolean;
  ownerName: string;
  challengedName: string;
}) {
  const { t, i18n } = useTranslation();
  const status = challenge.status;
  const names = { owner: ownerName, challenged: challengedName };
  const deadline = challenge.judgingDeadline
    ? formatDate(challenge.judgingDeadline, i18n.language, {
        dateStyle: 'medium',
        timeStyle: 'short',
      })
    : null;
  let tone: 'info' | 'success' | 'warning' | 'error' = 'info';
  let text: ReactNode = null;
  const duel = isDuel(challenge) ? duelState(challenge, role) : null;
  switch (duel ? 'duel' : status) {
    case 'duel':
      tone = duel!.tone;
      text = t(`duel.state.${duel!.key}`, {
        ...names,
        amount: formatAmount(challenge.challengeReward, i18n.language),
        winner: sideOf(challenge, 'owner')?.status === 'completed' ? names.owner : names.challenged,
      });
      break;
    case 'draft':
    case 'open':
      text =
        role === 'owner'
          ? t('challenge.state.openOwner', names)
          : role === 'challenged'
            ? t('challenge.state.openChallenged', names)
            : t('challenge.state.open', names);
      break;
    case 'accepted':
      tone = 'info';
      text =
        role === 'challenged'
          ? videoIn
            ? t('challenge.state.acceptedVideoSent', names)
            : t('challenge.state.acceptedChallenged')
          : videoIn
            ? t('challenge.state.acceptedVideoIn', names)
            : t('challenge.state.accepted', names);
      break;
    case 'review':
      tone = 'warning';
      text = (
        <>
          <p>
            {role === 'owner'
              ? t('challenge.state.reviewOwner', names)
              : t('challenge.state.review', names)}
          </p>
          {deadline ? (
            <p>
              {role === 'challenged'
                ? t('challenge.state.treatedAsApproved', { date: deadline })
                : role === 'owner'
                  ? t('challenge.state.judgeBefore', { date: deadline })
                  : null}
            </p>
          ) : null}
        </>
      );
      break;
    case 'referee':
      tone = 'warning';
      text = t('challenge.state.referee', names);
      break;
    // Where the money went, said to each party as "you" (not their own name).
    case 'completed':
      tone = 'success';
      text = challenge.judgedByReferee
        ? role === 'challenged'
          ? t('challenge.state.completedByRefereeChallenged')
          : t('challenge.state.completedByReferee', names)
        : role === 'challenged'
          ? t('challenge.state.completedChallenged')
          : t('challenge.state.completed', names);
      break;
    case 'refused':
      tone = 'error';
      text =
        role === 'owner'
          ? t('challenge.state.refusedOwner', names)
          : role === 'challenged'
            ? t('challenge.state.refusedChallenged', names)
            : t('challenge.state.refused', names);
      break;
    case 'failed':
      tone = 'error';
      text =
        role === 'owner' ? t('challenge.state.failedOwner') : t('challenge.state.failed', names);
      break;
    case 'expired':
      text =
        role === 'owner' ? t('challenge.state.expiredOwner') : t('challenge.state.expired', names);
      break;
    case 'cancelled':
      text =
        role === 'owner'
          ? t('challenge.state.cancelledOwner')
          : t('challenge.state.cancelled', names);
      break;
    default:
      return null;
  }
  const reasonLabel =
    status === 'refused' ? t('challenge.detail.declineReason') : t('challenge.detail.rejectReason');
  return (
    <Notice tone={tone} title={t(`challenge.status.${status as 'open'}`)}>
      {typeof text === 'string' ? <p>{text}</p> : text}
      {challenge.reason ? (
        <>
          <p className={styles.partyRole}>{reasonLabel}</p>
          <blockquote className={styles.quote}>{challenge.reason}</blockquote>
        </>
      ) : null}
      {challenge.challengeFailedComment ? (
        <>
          <p className={styles.partyRole}>{t('challenge.detail.refereeComment')}</p>
          <blockquote className={styles.quote}>{challenge.challengeFailedComment}</blockquote>
        </>
      ) : null}
    </Notice>
  );
}
