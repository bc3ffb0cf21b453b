import { useTranslation } from 'react-i18next';
import layout from '../../../../ui/layout.module.css';
import type { ChallengeDetail } from '../../graphql/ChallengeBySlug';
import { ChallengeVideoPanel } from '../ChallengeVideo';
import { type Role, isDuel, sideOf } from './roles';

/** The states in which a video can be on its way or in: nobody uploads before accepting. */
const VIDEO_STATES = ['accepted', 'review', 'referee', 'completed', 'failed'];

/**
 * The proof video: the upload for the performer whose video is awaited, the player for everyone
 * who may see the challenge (media decides). Not shown while no video can exist (open, declined,
 * cancelled, expired): an empty slot there only pushed the decision further down the page.
 */
export function VideoSlot({
  challenge,
  role,
  refetch,
  onVideoIn,
}: {
  challenge: ChallengeDetail;
  role: Role;
  refetch: () => Promise<void>;
  onVideoIn: (videoIn: boolean) => void;
}) {
  const { t } = useTranslation();
  if (!VIDEO_STATES.includes(challenge.status)) return null;
  const canUpload = isDuel(challenge)
    ? role !== 'viewer' && sideOf(challenge, role)?.status === 'awaiting_video'
    : role === 'challenged' && challenge.status === 'accepted';
  return (
    <section className={layout.panel} aria-label={t('challenge.video.title')}>
      <h2 className={layout.panelTitle}>{t('challenge.video.title')}</h2>
      <ChallengeVideoPanel
        challengeId={challenge.id}
        slug={challenge.slug}
        proofPhrase={challenge.proofPhrase}
        status={challenge.status}
        canUpload={canUpload}
        duel={isDuel(challenge)}
        onVideoIn={onVideoIn}
        onVideoReady={() => void refetch()}
      />
    </section>
  );
}
