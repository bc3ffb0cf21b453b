import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../ui/Avatar';
import { Button } from '../../../ui/Button';
import { AVATAR_ACCEPT, avatarFileProblem } from '../avatarUpload';
import styles from './AvatarPicker.module.css';

/** What the next save does with the picture. */
export type AvatarChoice = { kind: 'keep' } | { kind: 'new'; file: File } | { kind: 'remove' };

export interface AvatarPickerProps {
  /** The name whose initial shows without a picture. */
  name: string;
  /** The saved picture's URL (from the API), or null. */
  saved: string | null;
  choice: AvatarChoice;
  onChoice: (choice: AvatarChoice) => void;
  /** An error to show (the server's, after a save); the picker shows its own checks too. */
  error: string | null;
  /** A save with this choice is under way. */
  busy: boolean;
}

/** A preview URL of a picked file for as long as it is picked (revoked afterwards). */
function usePreview(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return undefined;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return url;
}

/**
 * Settings' profile picture: pick a jpg or png (checked here for type and size, then by the
 * server from the content), see it before saving, or remove the saved one. Saving happens with
 * the rest of the profile form.
 */
export function AvatarPicker({ name, saved, choice, onChoice, error, busy }: AvatarPickerProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const messageId = useId();
  const [problem, setProblem] = useState<'type' | 'size' | null>(null);
  const preview = usePreview(choice.kind === 'new' ? choice.file : null);
  const shown = choice.kind === 'new' ? preview : choice.kind === 'remove' ? null : saved;
  const message =
    problem === 'type'
      ? t('settings.avatar.invalidType')
      : problem === 'size'
        ? t('settings.avatar.tooLarge')
        : error;
  const note = busy
    ? t('settings.avatar.uploading')
    : choice.kind === 'new'
      ? t('settings.avatar.pendingNew')
      : choice.kind === 'remove'
        ? t('settings.avatar.pendingRemove')
        : null;

  const pick = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    const found = avatarFileProblem(file);
    setProblem(found);
    if (!found) onChoice({ kind: 'new', file });
  };

  return (
    <div className={styles.picker} aria-busy={busy}>
      <div className={styles.preview}>
        <Avatar name={name} src={shown} size="xl" />
        {choice.kind === 'new' && preview ? (
          <span className={styles.visuallyHidden}>{t('settings.avatar.previewLabel')}</span>
        ) : null}
      </div>
      <div className={styles.body}>
        <span className={styles.title}>{t('settings.avatar.title')}</span>
        <span id={hintId} className={styles.hint}>
          {t('settings.avatar.hint')}
        </span>
        <input
          ref={input}
          className={styles.file}
          type="file"
          accept={AVATAR_ACCEPT}
          tabIndex={-1}
          aria-label={t('settings.avatar.file')}
          onChange={(event) => pick(event.target.files?.[0])}
        />
        <div className={styles.actions}>
          <Button
            type="button"
            variant="secondary"
            size="sm"
            disabled={busy}
            aria-describedby={`${hintId} ${messageId}`}
            onClick={() => input.current?.click()}
          >
            {saved || choice.kind === 'new'
              ? t('settings.avatar.change')
              : t('settings.avatar.choose')}
          </Button>
          {choice.kind !== 'keep' ? (
            <Button
              type="button"
              variant="tertiary"
              size="sm"
              disabled={busy}
              onClick={() => {
                setProblem(null);
                onChoice({ kind: 'keep' });
              }}
            >
              {t('settings.avatar.undo')}
            </Button>
          ) : saved ? (
            <Button
              type="button"
              variant="tertiary"
              size="sm"
              disabled={busy}
              onClick={() => {
                setProblem(null);
                onChoice({ kind: 'remove' });
              }}
            >
              {t('settings.avatar.remove')}
            </Button>
          ) : null}
        </div>
        <span id={messageId} className={styles.messages}>
          {message ? (
            <span className={styles.error} role="alert">
              {message}
            </span>
          ) : note ? (
            <span className={styles.note} role="status">
              {note}
            </span>
          ) : null}
        </span>
      </div>
    </div>
  );
}
