import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../../lib/dates';
import { formatAmount } from '../../../../lib/money';
import layout from '../../../../ui/layout.module.css';
import { useGetCurrentUser } from '../../../auth/hooks/useGetCurrentUser';
import type { ChallengeDetail } from '../../graphql/ChallengeBySlug';
import { nameOf } from '../ChallengeCard';
import { ChallengeComments } from '../ChallengeComments';
import { RespectButton } from '../RespectButton';
import { StatusBadge } from '../StatusBadge';
import styles from '../Challenge.module.css';
import { Actions } from './Actions';
import { DuelSides } from './DuelSides';
import { JudgeActions } from './JudgeActions';
import { Party } from './Party';
import { StateNotice } from './StateNotice';
import { VideoSlot } from './VideoSlot';
import { isDuel, roleOf } from './roles';

export function ChallengeView({
  challenge,
  refetch,
}: {
  challenge: ChallengeDetail;
  refetch: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { user, loading: checkingSession } = useGetCurrentUser();
  const role = roleOf(challenge, user?.id ?? null);
  const status = challenge.status;
  const isParty = role !== 'viewer';
  // A video is in (processing, or ready while the challenge catches up): the state says so.
  const [videoIn, setVideoIn] = useState(false);
  const ownerName = nameOf(challenge.owner);
  const challengedName = challenge.challengedUser
    ? nameOf(challenge.challengedUser)
    : (challenge.challengedEmail ?? t('challenge.someone'));

  return (
    <article className={styles.page}>
      <header className={styles.hero}>
        <div className={styles.heroTop}>
          <StatusBadge status={status} />
          <span className={styles.badge + ' ' + styles['badge-neutral']}>
            {t(`challenge.visibility.${challenge.visibility === 'private' ? 'private' : 'public'}`)}
          </span>
          <span className={styles.badge + ' ' + styles['badge-neutral']}>
            {t(`challenge.type.${challenge.challengeType === 'duel' ? 'duel' : 'solo'}`)}
          </span>
        </div>
        <h1 className={styles.title}>{challenge.challengeName}</h1>
        <RespectButton
          challenge={challenge}
          viewer={checkingSession ? 'unknown' : isParty ? 'party' : user ? 'other' : 'visitor'}
        />
        <div className={styles.parties}>
          <Party user={challenge.owner} role={t('challenge.detail.owner')} />
          <span className={styles.vs} aria-hidden="true">
            →
          </span>
          <Party
            user={challenge.challengedUser}
            email={challenge.challengedEmail}
            role={t('challenge.detail.challenged')}
          />
        </div>
      </header>

      <dl className={styles.facts}>
        <div className={styles.fact}>
          <dt>{t('challenge.detail.reward')}</dt>
          <dd>{formatAmount(challenge.challengeReward, language)}</dd>
        </div>
        <div className={styles.fact}>
          <dt>{t('challenge.detail.expires')}</dt>
          <dd>{formatDate(challenge.expirationDate, language)}</dd>
        </div>
        <div className={styles.fact}>
          <dt>{t('challenge.detail.created')}</dt>
          <dd>{formatDate(challenge.createdAt, language)}</dd>
        </div>
      </dl>

      <StateNotice
        challenge={challenge}
        role={role}
        videoIn={videoIn}
        ownerName={ownerName}
        challengedName={challengedName}
      />

      {/* The judge's decision right under the banner that asks for it (issue 22, point 2). */}
      <JudgeActions challenge={challenge} role={role} refetch={refetch} />

      {isDuel(challenge) && (challenge.sides ?? []).length > 0 ? (
        <DuelSides challenge={challenge} ownerName={ownerName} challengedName={challengedName} />
      ) : null}

      {isParty && challenge.proofPhrase ? (
        <section className={styles.phrase} aria-label={t('challenge.detail.proofPhraseTitle')}>
          <span className={styles.partyRole}>{t('challenge.detail.proofPhraseTitle')}</span>
          <span className={styles.phraseText}>“{challenge.proofPhrase}”</span>
          <span>
            {role === 'challenged'
              ? t('challenge.detail.proofPhraseChallenged')
              : t('challenge.detail.proofPhraseOwner')}
          </span>
        </section>
      ) : null}

      <section className={layout.panel} aria-label={t('challenge.detail.descriptionTitle')}>
        <h2 className={layout.panelTitle}>{t('challenge.detail.descriptionTitle')}</h2>
        <p className={styles.description}>{challenge.challengeDescription}</p>
        {challenge.tags.length > 0 ? (
          <ul className={styles.tags} aria-label={t('challenge.detail.tags')}>
            {challenge.tags.map((tag) => (
              <li key={tag.name} className={styles.tag}>
                #{tag.name}
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <VideoSlot challenge={challenge} role={role} refetch={refetch} onVideoIn={setVideoIn} />

      <Actions challenge={challenge} role={role} refetch={refetch} />

      <ChallengeComments slug={challenge.slug} loggedIn={user !== null} />
    </article>
  );
}
