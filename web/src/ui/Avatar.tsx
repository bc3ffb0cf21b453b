import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from '../lib/cx';
import { ipxImage } from '../lib/ipx';
import styles from './Avatar.module.css';

export type AvatarStatus = 'away' | 'busy' | 'offline' | 'online';

export interface AvatarProps {
  /** Display name; its first character is the fallback initial. */
  name: string;
  src?: string | null;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  status?: AvatarStatus;
  className?: string;
}

const PALETTE = [
  '#6d28d9',
  '#d1135f',
  '#0f766e',
  '#b45309',
  '#1d4ed8',
  '#be123c',
  '#15803d',
  '#7c2d12',
];

/** CSS pixels of each size (Avatar.module.css, at 16 px per rem): the picture is asked at these. */
export const AVATAR_PIXELS = { sm: 32, md: 40, lg: 56, xl: 88 } as const;

export function avatarInitial(name: string): string {
  const first = Array.from(name.trim())[0];
  return first ? first.toLocaleUpperCase() : '?';
}

function colourFor(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return PALETTE[hash % PALETTE.length] ?? PALETTE[0] ?? '#6d28d9';
}

/**
 * Round avatar: the picture when there is one (through /_ipx at the size shown, density 1 and 2),
 * else the initial of the name, also when the picture does not load; optional status dot.
 */
export function Avatar({ name, src, size = 'md', status, className }: AvatarProps) {
  const { t } = useTranslation();
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = Boolean(src) && src !== failedSrc;
  return (
    <span className={cx(styles.avatar, styles[size], className)} data-status={status}>
      {showImage && src ? (
        <img
          className={styles.image}
          {...ipxImage(src, AVATAR_PIXELS[size])}
          alt=""
          width={AVATAR_PIXELS[size]}
          height={AVATAR_PIXELS[size]}
          loading="lazy"
          decoding="async"
          onError={() => setFailedSrc(src)}
        />
      ) : (
        <span className={styles.initial} style={{ background: colourFor(name) }} aria-hidden="true">
          {avatarInitial(name)}
        </span>
      )}
      {status ? (
        <span
          className={cx(styles.status, styles[status])}
          role="img"
          aria-label={t(`ui.avatar.status.${status}`)}
        />
      ) : null}
    </span>
  );
}
