import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure } from '../../../lib/mutationOutcome';
import { Button } from '../../../ui/Button';
import { HeartIcon } from '../../../ui/icons';
import { useModalRoute } from '../../auth/hooks/useModalRoute';
import { useLikeChallenge, type RespectState } from '../hooks/useLikeChallenge';
import styles from './Challenge.module.css';

/**
 * The respects of a challenge. Someone who may respect it (logged in, not a party) toggles at once
 * and sees it undone if the server refuses; a visitor is asked to log in; a party sees the count,
 * and so does everyone until the session check says who they are (a click before it would ask
 * a logged-in person to log in).
 */
export function RespectButton({
  challenge,
  viewer,
}: {
  challenge: RespectState;
  viewer: 'visitor' | 'party' | 'other' | 'unknown';
}) {
  const { t } = useTranslation();
  const { openModal } = useModalRoute();
  const { toggleRespect, loading } = useLikeChallenge();
  const [failure, setFailure] = useState<string | null>(null);
  const count = t('challenge.respect.count', { count: challenge.challengeLikesCount });

  if (viewer === 'party' || viewer === 'unknown') {
    return (
      <p className={styles.cardRespects}>
        <HeartIcon size={16} aria-hidden="true" />
        {count}
      </p>
    );
  }

  const toggle = async () => {
    if (viewer === 'visitor') {
      openModal('login-magic-link');
      return;
    }
    setFailure(null);
    const outcome = await toggleRespect(challenge);
    if (!outcome.ok) setFailure(describeFailure(t, outcome, t('challenge.respect.failed')));
  };

  return (
    <div className={styles.respect}>
      <Button
        variant={challenge.hasLiked ? 'action' : 'secondary'}
        size="sm"
        aria-pressed={challenge.hasLiked}
        disabled={loading}
        onClick={() => void toggle()}
        iconStart={<HeartIcon size={16} aria-hidden="true" />}
      >
        {challenge.hasLiked ? t('challenge.respect.given') : t('challenge.respect.give')}
      </Button>
      <span className={styles.respectCount} aria-live="polite">
        {count}
      </span>
      {failure ? (
        <p className={styles.respectFailure} role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
