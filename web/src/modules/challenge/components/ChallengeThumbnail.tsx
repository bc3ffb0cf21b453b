import { useState } from 'react';
import { Link } from 'react-router';
import { VideoIcon } from '../../../ui/icons';
import styles from './Challenge.module.css';

/**
 * A challenge card's picture: the thumbnail of its newest proof video (media's signed URL), or a
 * neutral placeholder when there is none (no video yet, or not for this viewer) or the image does
 * not load (a link that expired). A fixed 16:9 box, so that nothing moves when the image arrives;
 * loaded lazily, as a list has many. It opens the challenge like the title does, and is hidden
 * from assistive technology and the tab order: the title is the link they use.
 */
export function ChallengeThumbnail({ src, to }: { src: string | null; to: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const shown = src !== null && src !== failedSrc ? src : null;
  return (
    <Link
      className={styles.thumb}
      to={to}
      tabIndex={-1}
      aria-hidden="true"
      data-testid="challenge-thumbnail"
    >
      {shown ? (
        <img
          src={shown}
          alt=""
          loading="lazy"
          decoding="async"
          width={160}
          height={90}
          onError={() => setFailedSrc(shown)}
        />
      ) : (
        <VideoIcon size={22} data-testid="challenge-thumbnail-placeholder" />
      )}
    </Link>
  );
}
