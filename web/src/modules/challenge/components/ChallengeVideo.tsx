import { useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AppOperationContext } from '../../../app/apolloClient';
import { usePageData } from '../../../app/pageData';
import { Button, ButtonAnchor } from '../../../ui/Button';
import { VideoIcon } from '../../../ui/icons';
import { Notice } from '../../../ui/Notice';
import { Spinner } from '../../../ui/Spinner';
import { ChallengeVideosDocument, type ChallengeVideo } from '../graphql/ChallengeVideos';
import { LIVE_POLL_MS } from '../hooks/useGetChallenge';
import { VideoUploadDialog } from './VideoUploadDialog';
import styles from './ChallengeVideo.module.css';

/** A hidden tab (another tab in front, a locked phone) does not ask. */
const hidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

/** How often the page asks whether an uploaded video is ready. */
export const PROCESSING_POLL_MS = 4000;
/** After this long the page stops asking; a video that failed processing is told by notification. */
export const PROCESSING_GIVE_UP_MS = 10 * 60 * 1000;

const ASPECT_MODES = ['portrait', 'landscape', 'square'] as const;
const aspectOf = (mode: string) =>
  (ASPECT_MODES as readonly string[]).includes(mode) ? mode : 'landscape';

/**
 * One proof: the player framed by its aspect mode, the phrase beside it, download, warnings.
 * `onBroken` hears of a video that would not load: its signed link expired, or media moved the
 * video (hidden or made private: docs/adr/0065), so the page asks for fresh links.
 */
export function VideoPlayer({
  video,
  proofPhrase,
  onBroken,
}: {
  video: ChallengeVideo;
  proofPhrase: string | null;
  onBroken?: (videoSource: string) => void;
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
            onError={() => onBroken?.(video.videoSource)}
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

/** Why a panel waits for a video: this viewer's upload, or media saying one is in processing. */
interface Wait {
  /** The ready videos when the wait began: processing ends when another one shows. */
  known: string[];
  /** Media said (at least once) that a video is in processing. */
  confirmed: boolean;
  stalled: boolean;
  /**
   * The wait is for the proof this page awaits: this viewer's own upload, or any video of a solo
   * challenge (only its challenged user uploads). In a duel media's flag may be the other
   * party's video, which neither stops this viewer's upload nor is "your video".
   */
  proof: boolean;
}

/** How the last wait ended: a video arrived, or media gave up on it. */
interface Ended {
  outcome: 'delivered' | 'failed';
  proof: boolean;
}

/**
 * The challenge's video panel: the player once a proof is ready, the upload for the performer
 * whose video is awaited, and "processing" from a finished upload until the video appears, also
 * after a reload and on the other party's page (media's `videoInProcessing`, docs/adr/0053).
 */
export function ChallengeVideoPanel({
  challengeId,
  slug,
  proofPhrase,
  status,
  canUpload,
  duel = false,
  onVideoIn,
  onVideoReady,
}: {
  challengeId: string;
  slug: string;
  proofPhrase: string | null;
  /** The challenge's state: while it awaits a video (accepted) the panel keeps asking. */
  status: string;
  canUpload: boolean;
  /** Each party of a duel uploads a video of their own (docs/adr/0032). */
  duel?: boolean;
  /** Whether a video is in (processing, or ready while the challenge catches up). */
  onVideoIn?: (videoIn: boolean) => void;
  /** The challenge moved on (to review) once its video is processed: reload it. */
  onVideoReady: () => void;
}) {
  const { t } = useTranslation();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [wait, setWait] = useState<Wait | null>(null);
  // How the last wait ended: a video arrived (no second upload while the challenge hears of it,
  // a moment after media), or media gave up on it (the performer may upload another one).
  const [ended, setEnded] = useState<Ended | null>(null);
  const context: AppOperationContext = { suppressErrorToast: true };
  const fromPage = usePageData(ChallengeVideosDocument, { slug });
  const { data, loading, refetch, startPolling, stopPolling } = useQuery(ChallengeVideosDocument, {
    variables: { slug },
    context,
    skipPollAttempt: hidden,
    ...fromPage,
  });
  const challenge = data?.getChallengeBySlug?.challenge;
  const videos = challenge?.challengeVideos ?? [];
  const callbacks = useRef({ onVideoIn, onVideoReady });
  callbacks.current = { onVideoIn, onVideoReady };

  // Media says a video is in processing (after a reload, or the other party's upload): wait
  // until a new ready video shows, or until media no longer processes it (it failed).
  useEffect(() => {
    if (!challenge) return;
    const ready = challenge.challengeVideos;
    if (wait === null) {
      if (challenge.videoInProcessing)
        setWait({
          known: ready.map((video) => video.id),
          confirmed: true,
          stalled: false,
          proof: !duel,
        });
      return;
    }
    if (ready.some((video) => !wait.known.includes(video.id))) {
      setWait(null);
      setEnded({ outcome: 'delivered', proof: wait.proof });
      callbacks.current.onVideoReady();
      return;
    }
    if (challenge.videoInProcessing) {
      if (!wait.confirmed) setWait({ ...wait, confirmed: true });
      return;
    }
    // Its uploader hears of the failure from notification too; the performer may try again.
    if (wait.confirmed) {
      setWait(null);
      setEnded({ outcome: 'failed', proof: wait.proof });
    }
  }, [challenge, wait, duel]);

  const delivered = ended?.outcome === 'delivered' && ended.proof;
  // Ask often while a video is processed, now and then while one is awaited, else not at all.
  const waiting = wait !== null;
  const stalled = wait?.stalled ?? false;
  const pollMs = waiting
    ? stalled
      ? 0
      : PROCESSING_POLL_MS
    : status === 'accepted' && !delivered
      ? LIVE_POLL_MS
      : 0;
  useEffect(() => {
    if (!pollMs) return;
    startPolling(pollMs);
    return () => stopPolling();
  }, [pollMs, startPolling, stopPolling]);
  useEffect(() => {
    if (!waiting) return;
    const giveUp = setTimeout(() => {
      setWait((current) => (current ? { ...current, stalled: true } : current));
    }, PROCESSING_GIVE_UP_MS);
    return () => clearTimeout(giveUp);
  }, [waiting]);

  // The challenge moved on from awaiting a video while the page was open (the other party's
  // video is in): ask again. Later moves (approved, rejected) keep the player as it is.
  const seenStatus = useRef(status);
  useEffect(() => {
    const before = seenStatus.current;
    seenStatus.current = status;
    if (before === 'accepted' && status !== 'accepted') refetch().catch(() => undefined);
  }, [status, refetch]);

  const videoIn = (wait?.proof ?? false) || delivered;
  useEffect(() => {
    callbacks.current.onVideoIn?.(videoIn);
  }, [videoIn]);

  // A link that stopped working asks media once for fresh ones (the same link never twice, so a
  // video that is really gone does not make the page ask in a loop).
  const brokenAsked = useRef<string | null>(null);
  const onBroken = (videoSource: string) => {
    if (brokenAsked.current === videoSource) return;
    brokenAsked.current = videoSource;
    refetch().catch(() => undefined);
  };

  const latest = videos[0];
  return (
    <div className={styles.panel} data-slot="challenge-video">
      {latest ? (
        <VideoPlayer video={latest} proofPhrase={proofPhrase} onBroken={onBroken} />
      ) : waiting ? null : (
        <div className={styles.empty}>
          <VideoIcon size={28} />
          <p>{loading ? t('challenge.video.loading') : t('challenge.video.none')}</p>
        </div>
      )}
      {ended?.outcome === 'failed' && ended.proof && canUpload ? (
        <Notice tone="error" title={t('challenge.video.processingFailedTitle')}>
          <p>{t('challenge.video.processingFailed')}</p>
        </Notice>
      ) : null}
      {wait ? (
        <div className={styles.processing} role="status">
          {wait.stalled ? null : <Spinner />}
          <p>
            {wait.stalled
              ? t('challenge.video.processingSlow')
              : canUpload && wait.proof
                ? t('challenge.video.processing')
                : t('challenge.video.processingOther')}
          </p>
        </div>
      ) : null}
      {canUpload && !wait?.proof && !delivered ? (
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
          setEnded(null);
          setWait({
            known: videos.map((video) => video.id),
            confirmed: false,
            stalled: false,
            proof: true,
          });
          // Media has the video now: its answer says processing (or already ready).
          refetch().catch(() => undefined);
        }}
      />
    </div>
  );
}
