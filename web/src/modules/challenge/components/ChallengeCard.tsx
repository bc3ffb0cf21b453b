import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/dates';
import { formatAmount } from '../../../lib/money';
import { Avatar } from '../../../ui/Avatar';
import type { ChallengeSummary, ChallengeUser } from '../graphql/fragments';
import { StatusBadge } from './StatusBadge';
import styles from './Challenge.module.css';

export function nameOf(user: ChallengeUser): string {
  return user.displayName?.trim() || user.username;
}

/** One challenge in a list: name (a link to its page), state, reward, the other party, expiry. */
export function ChallengeCard({
  challenge,
  viewerId,
}: {
  challenge: ChallengeSummary;
  viewerId: string | null;
}) {
  const { t, i18n } = useTranslation();
  const ownerIsViewer = viewerId !== null && challenge.owner.id === viewerId;
  const other = ownerIsViewer ? challenge.challengedUser : challenge.owner;
  const otherName = other ? nameOf(other) : (challenge.challengedEmail ?? t('challenge.someone'));
  return (
    <li className={styles.card}>
      <Avatar name={otherName} src={other?.avatar ?? null} size="md" />
      <div className={styles.cardBody}>
        <Link
          className={styles.cardTitle}
          to={`/challenge/${encodeURIComponent(challenge.slug)}/detail`}
        >
          {challenge.challengeName}
        </Link>
        <span className={styles.cardMeta}>
          {ownerIsViewer
            ? t('challenge.card.sentTo', { name: otherName })
            : t('challenge.card.from', { name: otherName })}
          {' · '}
          {t('challenge.card.expires', {
            date: formatDate(challenge.expirationDate, i18n.language),
          })}
        </span>
      </div>
      <div className={styles.cardSide}>
        <span className={styles.cardReward}>
          {formatAmount(challenge.challengeReward, i18n.language)}
        </span>
        <StatusBadge status={challenge.status} />
      </div>
    </li>
  );
}
