import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatRelativeTime } from '../lib/dates';

export interface RelativeTimeProps {
  value: Date | string | number;
  /** How often the text refreshes; 30 s keeps "just now" honest. */
  refreshMs?: number;
}

/** "just now" under one minute, then "5 minutes ago" etc.; the full date is in the tooltip. */
export function RelativeTime({ value, refreshMs = 30_000 }: RelativeTimeProps) {
  const { t, i18n } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), refreshMs);
    return () => window.clearInterval(timer);
  }, [refreshMs]);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time
      dateTime={date.toISOString()}
      title={formatDate(date, i18n.language, { dateStyle: 'long', timeStyle: 'short' })}
    >
      {formatRelativeTime(date, now, i18n.language, t('ui.relativeTime.justNow'))}
    </time>
  );
}
