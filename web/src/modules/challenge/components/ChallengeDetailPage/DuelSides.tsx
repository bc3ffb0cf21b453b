import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../../lib/dates';
import layout from '../../../../ui/layout.module.css';
import type { ChallengeDetail } from '../../graphql/ChallengeBySlug';
import styles from '../Challenge.module.css';
import { type Role, sideOf } from './roles';

type DuelStateKey =
  | 'openOwner'
  | 'openChallenged'
  | 'open'
  | 'live'
  | 'bothCompleted'
  | 'won'
  | 'bothFailed'
  | 'stakesBack';

/** A duel's text where it differs from a solo challenge's (null: the solo text fits). */
export function duelState(
  challenge: ChallengeDetail,
  role: Role,
): { tone: 'info' | 'success' | 'warning' | 'error'; key: DuelStateKey } | null {
  const owner = sideOf(challenge, 'owner');
  const challenged = sideOf(challenge, 'challenged');
  switch (challenge.status) {
    case 'open':
      return {
        tone: 'info',
        key: role === 'owner' ? 'openOwner' : role === 'challenged' ? 'openChallenged' : 'open',
      };
    case 'accepted':
    case 'review':
    case 'referee':
      return { tone: challenge.status === 'accepted' ? 'info' : 'warning', key: 'live' };
    case 'completed':
    case 'failed':
      if (owner?.status === 'completed' && challenged?.status === 'completed') {
        return { tone: 'success', key: 'bothCompleted' };
      }
      if (owner?.status === 'completed' || challenged?.status === 'completed') {
        return { tone: 'success', key: 'won' };
      }
      return { tone: 'error', key: 'bothFailed' };
    case 'expired':
      return { tone: 'info', key: 'stakesBack' };
    default:
      return null;
  }
}

/** A duel's two performances: where each stands, who judges it, and until when. */
export function DuelSides({
  challenge,
  ownerName,
  challengedName,
}: {
  challenge: ChallengeDetail;
  ownerName: string;
  challengedName: string;
}) {
  const { t, i18n } = useTranslation();
  const rows = [
    { side: sideOf(challenge, 'owner'), name: ownerName, judge: challengedName },
    { side: sideOf(challenge, 'challenged'), name: challengedName, judge: ownerName },
  ];
  return (
    <section className={layout.panel} aria-label={t('duel.sides.title')}>
      <h2 className={layout.panelTitle}>{t('duel.sides.title')}</h2>
      <ul className={styles.tags} data-testid="duel-sides">
        {rows.map(({ side, name, judge }) =>
          side ? (
            <li key={side.performer.id} className={layout.panelText}>
              <strong>{t('duel.sides.of', { name })}</strong>
              {': '}
              {t(`duel.sides.${side.status}`, { judge })}
              {side.judgedByReferee ? ` (${t('duel.sides.judgedByReferee')})` : null}
              {side.judgingDeadline ? (
                <span className={styles.partyRole}>
                  {' '}
                  {t('duel.sides.deadline', {
                    judge,
                    date: formatDate(side.judgingDeadline, i18n.language, {
                      dateStyle: 'medium',
                      timeStyle: 'short',
                    }),
                  })}
                </span>
              ) : null}
              {side.reason ? <blockquote className={styles.quote}>{side.reason}</blockquote> : null}
              {side.challengeFailedComment ? (
                <blockquote className={styles.quote}>{side.challengeFailedComment}</blockquote>
              ) : null}
            </li>
          ) : null,
        )}
      </ul>
    </section>
  );
}
