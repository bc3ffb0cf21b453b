import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../ui/Button';
import { FlameIcon } from '../../../ui/icons';
import { useChallengeDraft } from '../../challenge/hooks/useChallengeDraft';

/**
 * "Challenge @user": step 1 of the create flow with this person as the target. The rest of a
 * draft in progress (title, description) is kept.
 */
export function ChallengeUserButton({ username }: { username: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { update } = useChallengeDraft();
  return (
    <Button
      variant="action-gradient"
      size="sm"
      iconStart={<FlameIcon size={18} />}
      onClick={() => {
        update({ target: 'username', challengedUsername: username });
        void navigate('/challenge/create/step-1');
      }}
    >
      {t('profile.challengeUser', { username })}
    </Button>
  );
}
