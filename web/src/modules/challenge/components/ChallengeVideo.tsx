import { useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AppOperationContext } from '../../../app/apolloClient';
import { Button, ButtonAnchor } from '../../../ui/Button';
import { VideoIcon } from '../../../ui/icons';
import { Notice } from '../../../ui/Notice';
import { Spinner } from '../../../ui/Spinner';
import { ChallengeVideosDocument, type ChallengeVideo } from '../graphql/ChallengeVideos';
import { VideoUploadDialog } from './VideoUploadDialog';
import styles from './ChallengeVideo.module.css';

/** How often the page asks whether an uploaded video is ready. */
export const PROCESSING_POLL_MS = 4000;
/** After this long the page stops asking; a video that failed processing is told by notification. */
export const PROCESSING_GIVE_UP_MS = 10 * 60 * 1000;

const ASPECT_MODES = ['portrait', 'landscape', 'square'] as const;
const aspectOf = (mode: string) =>
  (ASPECT_MODES as readonly string[]).includes(mode) ? mode : 'landscape';

/** One proof: the player framed by its aspect mode, the phrase beside it, download, warnings. */
export function VideoPlayer({
  video,
  proofPhrase,
}: {
  video: ChallengeVideo;
  proofPhrase: string | null;
}) {
  const { t } = useTranslation();
  const aspect = aspectOf(video.aspectMode);
  const earlier = video.recycledFrom;
  return (
    <div className={styles.proof}>
      {earlier ? (
        <Notice tone="warning" title={t('challenge.video.recycledTitle')}>
          <p>
            {t('challenge.video.recycledText')}{' '}
            {earlier.challenge ? (
              <Link to={`/challenge/${encodeURIComponent(earlier.challenge.slug)}/detail`}>
                {t('challenge.video.recycledLink', { name: earlier.challenge.challengeName })}
              </Link>
            ) : (
              t('challenge.video.recycledHidden')
            )}
          </p>
        </Notice>
      ) : null}
      <div className={styles.stage}>
        <figure className={`${styles.frame} ${styles[aspect]}`} data-aspect={aspect}>
          <video
            className={styles.video}
            src={video.videoSource}
            poster={video.thumbnailUrl ?? undefined}
            controls
            playsInline
            preload="metadata"
            aria-label={t('challenge.video.player')}
          />
        </figure>
        <div className={styles.aside}>
          {proofPhrase ? (
            <p className={styles.phrase}>
              <span className={styles.label}>{t('challenge.detail.proofPhraseTitle')}</span>
              <span>“{proofPhrase}”</span>
            </p>
          ) : null}
          {video.downloadUrl ? (
            <ButtonAnchor variant="secondary" href={video.downloadUrl} download>
              {t('challenge.video.download')}
            </ButtonAnchor>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/**
 * The challenge's video panel: the player once a proof is ready, the upload for the performer
 * whose video is awaited, and "processing" from a finished upload until the video appears.
 */
export function ChallengeVideoPanel({
  challengeId,
  slug,
  proofPhrase,
  status,
  canUpload,
  onVideoSent,
  onVideoReady,
}: {
  challengeId: string;
  slug: string;
  proofPhrase: string | null;
  /** The challenge's state: a change (another party's video moved it on) reloads the videos. */
  status: string;
  canUpload: boolean;
  /** This viewer's upload went through; the video is being processed. */
  onVideoSent?: () => void;
  /** The challenge moved on (to review) once its video is processed: reload it. */
  onVideoReady: () => void;
}) {
  const { t } = useTranslation();
  const [dialogOpen, setDialogOpen] = useState(false);
  // The ids of the ready videos when the upload finished; processing ends when a new one shows.
  const [processing, setProcessing] = useState<{ known: string[]; stalled: boolean } | null>(null);
  // This viewer's video arrived: no second upload while the challenge hears of it (it moves to
  // review a moment after media has the video ready).
  const [delivered, setDelivered] = useState(false);
  const context: AppOperationContext = { suppressErrorToast: true };
  const { data, loading, refetch, startPolling, stopPolling } = useQuery(ChallengeVideosDocument, {
    variables: { slug },
    context,
  });
  const videos = data?.getChallengeBySlug?.challenge?.challengeVideos ?? [];

  // The challenge moved on from awaiting a video while the page was open (the other party's
  // video is in): ask again. Later moves (approved, rejected) keep the player as it is.
  const seenStatus = useRef(status);
  useEffect(() => {
    const before = seenStatus.current;
    seenStatus.current = status;
    if (before === 'accepted' && status !== 'accepted') refetch().catch(() => undefined);
  }, [status, refetch]);

  const arrived =
    processing !== null && videos.some((video) => !processing.known.includes(video.id));
  useEffect(() => {
    if (!processing) return;
    if (arrived) {
      stopPolling();
      setProcessing(null);
      setDelivered(true);
      onVideoReady();
      return;
    }
    if (processing.stalled) return;
    startPolling(PROCESSING_POLL_MS);
    const giveUp = setTimeout(() => {
      setProcessing((current) => (current ? { ...current, stalled: true } : current));
    }, PROCESSING_GIVE_UP_MS);
    return () => {
      clearTimeout(giveUp);
      stopPolling();
    };
  }, [processing, arrived, startPolling, stopPolling, onVideoReady]);

  const latest = videos[0];
  return (
    <div className={styles.panel} data-slot="challenge-video">
      {latest ? (
        <VideoPlayer video={latest} proofPhrase={proofPhrase} />
      ) : processing ? null : (
        <div className={styles.empty}>
          <VideoIcon size={28} />
          <p>{loading ? t('challenge.video.loading') : t('challenge.video.none')}</p>
        </div>
      )}
      {processing ? (
        <div className={styles.processing} role="status">
          {processing.stalled ? null : <Spinner />}
          <p>
            {processing.stalled
              ? t('challenge.video.processingSlow')
              : t('challenge.video.processing')}
          </p>
        </div>
      ) : canUpload && !delivered ? (
        <div data-slot="challenge-video-upload">
          <Button variant="action-gradient" onClick={() => setDialogOpen(true)}>
            {t('challenge.video.upload')}
          </Button>
        </div>
      ) : null}
      <VideoUploadDialog
        challengeId={challengeId}
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        onUploaded={() => {
          setDialogOpen(false);
          setProcessing({ known: videos.map((video) => video.id), stalled: false });
          onVideoSent?.();
        }}
      />
    </div>
  );
}
