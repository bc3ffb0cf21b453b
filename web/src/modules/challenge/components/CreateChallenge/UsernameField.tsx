import { useQuery } from '@apollo/client/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '../../../../ui/Input';
import { FollowingDocument } from '../../../profile/graphql/Following';
import type { TargetCheck } from '../../hooks/useChallengeTarget';
import styles from './CreateChallenge.module.css';

/**
 * A username typed by hand; identity has no user search, so the suggestions are the people the
 * viewer follows whose username or name matches what is typed.
 */
export function UsernameField({
  value,
  viewerUsername,
  error,
  check,
  onChange,
  onBlur,
}: {
  value: string;
  viewerUsername: string | null;
  error: string | undefined;
  /** What the look-up of the typed username says (useChallengeTarget). */
  check: TargetCheck;
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const { t } = useTranslation();
  const { data } = useQuery(FollowingDocument, {
    variables: { username: viewerUsername ?? '', page: 1, itemsPerPage: 50 },
    skip: !viewerUsername,
    context: { suppressErrorToast: true },
  });
  const typed = value.trim().replace(/^@/, '').toLowerCase();
  const suggestions = useMemo(() => {
    const people = data?.getFollowing?.status.success ? (data.getFollowing.items ?? []) : [];
    return people
      .filter(
        (person) =>
          person.username.toLowerCase() !== typed &&
          (!typed ||
            person.username.toLowerCase().includes(typed) ||
            (person.displayName ?? '').toLowerCase().includes(typed)),
      )
      .slice(0, 5);
  }, [data, typed]);
  return (
    <div className={styles.usernameField}>
      <Input
        label={t('createChallenge.target.usernameLabel')}
        name="challengedUsername"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={t('createChallenge.target.usernamePlaceholder')}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        status={error ? 'error' : check.state === 'found' ? 'success' : 'hint'}
        message={
          error ??
          (check.state === 'checking'
            ? t('createChallenge.target.checking')
            : check.state === 'found'
              ? check.displayName
                ? t('createChallenge.target.foundNamed', {
                    name: check.displayName,
                    username: check.username,
                  })
                : t('createChallenge.target.found', { username: check.username })
              : t('createChallenge.target.usernameHint'))
        }
      />
      {suggestions.length > 0 ? (
        <div className={styles.suggestions}>
          <p className={styles.suggestionsLabel}>{t('createChallenge.target.suggestions')}</p>
          <ul className={styles.chips}>
            {suggestions.map((person) => (
              <li key={person.id}>
                <button
                  type="button"
                  className={styles.suggestion}
                  onClick={() => onChange(person.username)}
                >
                  {person.displayName
                    ? `${person.displayName} (@${person.username})`
                    : `@${person.username}`}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
