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

/** A calendar date without a time of day (what `<input type="date">` holds). */
export interface CalendarDate {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
}

/** Parses `YYYY-MM-DD`; null unless the date exists (no 31 February). */
export function parseCalendarDate(value: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const exists =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exists && year >= 1000 ? { year, month, day } : null;
}

/** Today's calendar date in the browser's time zone. */
export function today(now: Date = new Date()): CalendarDate {
  return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
}

/** `YYYY-MM-DD` for a calendar date. */
export function formatCalendarDate({ year, month, day }: CalendarDate): string {
  const pad = (value: number, length: number) => String(value).padStart(length, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

export function isBefore(a: CalendarDate, b: CalendarDate): boolean {
  return compareCalendarDates(a, b) < 0;
}

/**
 * Whole calendar years from `birthday` to `on`: someone born on 29 February turns a year older on
 * 1 March in a common year, as the server counts too.
 */
export function ageOn(birthday: CalendarDate, on: CalendarDate): number {
  const hadBirthday =
    on.month > birthday.month || (on.month === birthday.month && on.day >= birthday.day);
  return on.year - birthday.year - (hadBirthday ? 0 : 1);
}
