import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatAmount } from '../../../lib/money';
import { Avatar } from '../../../ui/Avatar';
import { HeartIcon } from '../../../ui/icons';
import type { PublicChallengeSummary } from '../graphql/publicFragments';
import { nameOf } from './ChallengeCard';
import { ChallengeThumbnail } from './ChallengeThumbnail';
import { StatusBadge } from './StatusBadge';
import styles from './Challenge.module.css';

/**
 * One challenge in a public list (home, discover, a profile's lists): the thumbnail of its proof
 * (or a placeholder), name (a link to its page), who dares whom, reward, state and respects.
 */
export function PublicChallengeCard({ challenge }: { challenge: PublicChallengeSummary }) {
  const { t, i18n } = useTranslation();
  const owner = nameOf(challenge.owner);
  const challenged = challenge.challengedUser ? nameOf(challenge.challengedUser) : null;
  const href = `/challenge/${encodeURIComponent(challenge.slug)}/detail`;
  return (
    <li className={`${styles.card} ${styles.cardWithThumb}`}>
      <ChallengeThumbnail src={challenge.thumbnailUrl ?? null} to={href} />
      <div className={styles.cardBody}>
        <Link className={styles.cardTitle} to={href}>
          {challenge.challengeName}
        </Link>
        <span className={`${styles.cardMeta} ${styles.cardByline}`}>
          <Avatar name={owner} src={challenge.owner.avatar} size="sm" />
          <span>
            {challenged
              ? t('challenge.publicCard.byFor', { owner, challenged })
              : t('challenge.publicCard.by', { owner })}
            {' · '}
            {t(`challenge.publicCard.type.${challenge.challengeType === 'duel' ? 'duel' : 'solo'}`)}
          </span>
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
