import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { errorText } from '../../../lib/errorMessages';
import type { ResponseStatus } from '../../../lib/graphql';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { VideoIcon } from '../../../ui/icons';
import { Modal } from '../../../ui/Modal';
import { Notice } from '../../../ui/Notice';
import { TOO_LARGE_MESSAGE, VIDEO_ACCEPT, videoFileProblem } from '../videoUpload';
import {
  isResumableFailure,
  uploadVideoResumably,
  type TusProgress,
  type TusUpload,
} from '../tusUpload';
import styles from './ChallengeVideo.module.css';

/**
 * The text for a refused or failed upload: the spec's texts, and for media's invalid_file the
 * real problem. The dialog only sends a file whose name or type says mp4, mov or webm, so media
 * refusing its content means the file is not a video whatever its name says.
 */
export function uploadFailureText(t: TFunction, status: ResponseStatus, fileName: string): string {
  if (status.message?.trim() === TOO_LARGE_MESSAGE) return t('challenge.video.tooLarge');
  if (status.identifier === 'invalid_file')
    return t('challenge.video.notAVideo', { name: fileName });
  return errorText(t, status.identifier ?? 'challenge_video_upload_failed');
}

/** "About 2 minutes left": rounded as people say it, never more precise than it is. */
export function timeLeftText(t: TFunction, seconds: number | null): string {
  if (seconds === null) return t('challenge.video.timeLeftUnknown');
  if (seconds < 10) return t('challenge.video.fewSecondsLeft');
  if (seconds < 60) {
    return t('challenge.video.secondsLeft', { count: Math.round(seconds / 10) * 10 });
  }
  if (seconds < 60 * 60) {
    return t('challenge.video.minutesLeft', { count: Math.max(1, Math.round(seconds / 60)) });
  }
  return t('challenge.video.hoursLeft', { count: Math.round(seconds / 3600) });
}

/**
 * The performer's upload: pick a file (mp4, mov, webm up to 500 MB, checked here first), confirm
 * it is their own, then follow the progress with the time left, or cancel. The file goes up
 * resumably (tus, tusUpload.ts): a lost connection is retried where it stopped, and picking the
 * same file again after a reload resumes it.
 */
export function VideoUploadDialog({
  challengeId,
  open,
  onClose,
  onUploaded,
}: {
  challengeId: string;
  open: boolean;
  onClose: () => void;
  onUploaded: (videoId: string | null) => void;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<TusProgress | null>(null);
  const upload = useRef<TusUpload | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();

  // Leaving the page (or the dialog going away) stops an upload in flight but keeps it on the
  // server: the same file picked again resumes. Only Cancel removes it.
  useEffect(() => () => upload.current?.pause(), []);

  const reset = () => {
    setFile(null);
    setConfirmed(false);
    setError(null);
    setProgress(null);
  };

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    setError(null);
    if (!picked) {
      setFile(null);
      return;
    }
    const problem = videoFileProblem(picked);
    if (problem) {
      setFile(null);
      setError(
        problem === 'size' ? t('challenge.video.tooLarge') : t('challenge.video.invalidType'),
      );
      event.target.value = '';
      return;
    }
    setFile(picked);
  };

  const start = async () => {
    if (!file || !confirmed || upload.current) return;
    setError(null);
    setProgress({ loaded: 0, total: file.size, percent: 0, secondsLeft: null, retrying: false });
    const running = uploadVideoResumably({
      challengeId,
      file,
      ownVideoConfirmed: true,
      onProgress: setProgress,
    });
    upload.current = running;
    const outcome = await running.result;
    upload.current = null;
    if (outcome.ok) {
      reset();
      onUploaded(outcome.id);
      return;
    }
    setProgress(null);
    if (outcome.cancelled) return;
    setError(uploadFailureText(t, outcome.status, file.name));
    // A refused file is not offered again: Upload waits for another one. After a lost connection
    // or a lapsed sign-in the same file stays and resumes.
    if (!isResumableFailure(outcome.status)) {
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const cancel = () => {
    if (upload.current) {
      upload.current.cancel();
      return;
    }
    reset();
    onClose();
  };

  const uploading = progress !== null;
  return (
    <Modal
      open={open}
      onClose={cancel}
      persistent={uploading}
      notEscapable={uploading}
      title={t('challenge.video.uploadTitle')}
      description={t('challenge.video.uploadText')}
      footer={
        <>
          <Button variant="secondary" onClick={cancel}>
            {uploading ? t('challenge.video.cancelUpload') : t('challenge.video.close')}
          </Button>
          <Button
            variant="action-gradient"
            onClick={() => void start()}
            disabled={!file || !confirmed || uploading}
          >
            {t('challenge.video.send')}
          </Button>
        </>
      }
    >
      <div className={styles.form}>
        {error ? (
          <Notice tone="error" title={t('challenge.video.uploadFailed')}>
            <p>{error}</p>
          </Notice>
        ) : null}
        {/* The browser's own file input cannot be styled: a button like the others opens it. */}
        <div className={styles.filePicker}>
          <span className={styles.fileTitle}>{t('challenge.video.file')}</span>
          <input
            ref={fileInput}
            className={styles.fileInput}
            type="file"
            accept={VIDEO_ACCEPT}
            tabIndex={-1}
            aria-label={t('challenge.video.file')}
            onChange={pick}
            disabled={uploading}
            data-testid="video-file"
          />
          <div className={styles.fileRow}>
            <Button
              variant="secondary"
              size="sm"
              iconStart={<VideoIcon size={16} />}
              disabled={uploading}
              aria-describedby={`${fileId}-name ${fileId}-hint`}
              onClick={() => fileInput.current?.click()}
            >
              {file ? t('challenge.video.chooseAnother') : t('challenge.video.choose')}
            </Button>
            <span id={`${fileId}-name`} className={styles.fileName}>
              {file ? file.name : t('challenge.video.noFile')}
            </span>
          </div>
          <span id={`${fileId}-hint`} className={styles.hint}>
            {t('challenge.video.fileHint')}
          </span>
        </div>
        <Checkbox
          label={t('challenge.video.ownVideo')}
          checked={confirmed}
          disabled={uploading}
          onChange={(event) => setConfirmed(event.target.checked)}
        />
        {progress ? (
          <div className={styles.progress}>
            <div
              className={styles.progressTrack}
              role="progressbar"
              aria-label={t('challenge.video.progress')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress.percent}
            >
              <div
                className={`${styles.progressBar} ${progress.retrying ? styles.progressStalled : ''}`}
                style={{ width: `${progress.percent}%` }}
              />
            </div>
            <p className={styles.progressText} aria-live="polite">
              <span>{t('challenge.video.percent', { percent: progress.percent })}</span>
              {progress.retrying ? (
                <span className={styles.retrying}>{t('challenge.video.retrying')}</span>
              ) : (
                <span>{timeLeftText(t, progress.secondsLeft)}</span>
              )}
            </p>
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
