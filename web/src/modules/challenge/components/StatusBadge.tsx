import { useTranslation } from 'react-i18next';
import { cx } from '../../../lib/cx';
import styles from './Challenge.module.css';

const KNOWN = [
  'draft',
  'open',
  'accepted',
  'review',
  'referee',
  'completed',
  'refused',
  'failed',
  'expired',
  'cancelled',
] as const;
type KnownStatus = (typeof KNOWN)[number];

const TONE: Record<KnownStatus, string> = {
  draft: 'neutral',
  open: 'info',
  accepted: 'accent',
  review: 'warning',
  referee: 'warning',
  completed: 'success',
  refused: 'error',
  failed: 'error',
  expired: 'neutral',
  cancelled: 'neutral',
};

export function isKnownStatus(status: string): status is KnownStatus {
  return (KNOWN as readonly string[]).includes(status);
}

/** A challenge's state as a coloured badge with its translated name. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = isKnownStatus(status) ? status : null;
  return (
    <span
      className={cx(styles.badge, styles[`badge-${known ? TONE[known] : 'neutral'}`])}
      data-status={status}
    >
      {known ? t(`challenge.status.${known}`) : status}
    </span>
  );
}
