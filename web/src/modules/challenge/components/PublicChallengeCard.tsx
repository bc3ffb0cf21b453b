import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatAmount } from '../../../lib/money';
import { Avatar } from '../../../ui/Avatar';
import { HeartIcon } from '../../../ui/icons';
import type { PublicChallengeSummary } from '../graphql/publicFragments';
import { nameOf } from './ChallengeCard';
import { StatusBadge } from './StatusBadge';
import styles from './Challenge.module.css';

/**
 * One challenge in a public list (discover, a profile's lists): name (a link to its page), who
 * dares whom, reward, state and respects.
 */
export function PublicChallengeCard({ challenge }: { challenge: PublicChallengeSummary }) {
  const { t, i18n } = useTranslation();
  const owner = nameOf(challenge.owner);
  const challenged = challenge.challengedUser ? nameOf(challenge.challengedUser) : null;
  return (
    <li className={styles.card}>
      <Avatar name={owner} src={challenge.owner.avatar} size="md" />
      <div className={styles.cardBody}>
        <Link
          className={styles.cardTitle}
          to={`/challenge/${encodeURIComponent(challenge.slug)}/detail`}
        >
          {challenge.challengeName}
        </Link>
        <span className={styles.cardMeta}>
          {challenged
            ? t('challenge.publicCard.byFor', { owner, challenged })
            : t('challenge.publicCard.by', { owner })}
          {' · '}
          {t(`challenge.publicCard.type.${challenge.challengeType === 'duel' ? 'duel' : 'solo'}`)}
        </span>
      </div>
      <div className={styles.cardSide}>
        <span className={styles.cardReward}>
          {formatAmount(challenge.challengeReward, i18n.language)}
        </span>
        <StatusBadge status={challenge.status} />
        <span className={styles.cardRespects}>
          <HeartIcon size={14} aria-hidden="true" />
          {t('challenge.publicCard.respects', { count: challenge.challengeLikesCount })}
        </span>
      </div>
    </li>
  );
}
