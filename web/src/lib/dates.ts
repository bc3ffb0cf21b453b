import { intlLocale } from './locale';

export function formatDate(
  value: Date | string | number,
  language: string | undefined,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' },
): string {
  return new Intl.DateTimeFormat(intlLocale(language), options).format(new Date(value));
}

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/**
 * "just now" for anything under one minute (past or future), otherwise the largest whole unit,
 * e.g. "5 minutes ago", "yesterday", "in 2 weeks".
 */
export function formatRelativeTime(
  value: Date | string | number,
  now: number,
  language: string | undefined,
  justNowLabel: string,
): string {
  const diffSeconds = (new Date(value).getTime() - now) / 1000;
  const absolute = Math.abs(diffSeconds);
  if (absolute < 60) return justNowLabel;
  const formatter = new Intl.RelativeTimeFormat(intlLocale(language), { numeric: 'auto' });
  for (const [unit, seconds] of UNITS) {
    if (absolute >= seconds) {
      return formatter.format(Math.trunc(diffSeconds / seconds), unit);
    }
  }
  return justNowLabel;
}
