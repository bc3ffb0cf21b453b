import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Avatar } from '../../../../ui/Avatar';
import type { ChallengeUser } from '../../graphql/fragments';
import { nameOf } from '../ChallengeCard';
import styles from '../Challenge.module.css';

export function Party({
  user,
  email,
  role,
}: {
  user: ChallengeUser | null;
  email?: string | null;
  role: string;
}) {
  const { t } = useTranslation();
  const name = user ? nameOf(user) : (email ?? t('challenge.someone'));
  return (
    <span className={styles.party}>
      <Avatar name={name} src={user?.avatar ?? null} size="sm" />
      <span>
        <span className={styles.partyRole}>{role}</span>
        {user ? <Link to={`/profile/${encodeURIComponent(user.username)}`}>{name}</Link> : name}
      </span>
    </span>
  );
}
