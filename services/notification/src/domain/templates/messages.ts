import { en, type MessageKey, type Messages } from './en.ts';
import { nl } from './nl.ts';

/** The languages e-mail is written in; English when a user's locale is unknown. */
export const LOCALES = ['en', 'nl'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const MESSAGES: Record<Locale, Messages> = { en, nl };

/** Dates and times as the recipient reads them, always in the platform's time zone. */
const INTL_LOCALE: Record<Locale, string> = { en: 'en-GB', nl: 'nl-NL' };
export const TIME_ZONE = 'Europe/Amsterdam';

export function toLocale(value: string | null | undefined): Locale {
  return LOCALES.find((locale) => locale === value) ?? DEFAULT_LOCALE;
}

/** Placeholders of a message, e.g. ['code'] for 'Your code: {code}'. */
export function placeholders(message: string): string[] {
  return [...message.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

export type Params = Record<string, string>;

/** Fills in `{name}` placeholders; a missing value is a programming error, never an empty gap. */
export function format(message: string, params: Params = {}): string {
  return message.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for placeholder {${name}}`);
    return value;
  });
}

/** The longest name (a challenge's title, a user's name) a mail shows: a title's maximum. */
export const NAME_TEXT_MAX = 100;

/**
 * A name someone wrote (a challenge's title, a username, a display name) as a mail shows it: on
 * one line (line breaks, tabs and other control characters become one space, so nothing adds lines
 * to the text part or a header) and at most NAME_TEXT_MAX characters (code points), cut with an
 * ellipsis. HTML escaping is the layout's (layout.ts), on every value.
 */
export function nameText(value: string): string {
  const line = value.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ').trim();
  const points = [...line];
  return points.length <= NAME_TEXT_MAX ? line : `${points.slice(0, NAME_TEXT_MAX - 1).join('')}…`;
}

export type Translate = (key: MessageKey, params?: Params) => string;

export function translator(locale: Locale): Translate {
  const messages = MESSAGES[locale];
  return (key, params) => format(messages[key], params);
}

/** e.g. "22 November 2026 at 14:35 CET" or "22 november 2026 om 14:35 CET". */
export function formatDateTime(locale: Locale, instant: Date): string {
  return new Intl.DateTimeFormat(INTL_LOCALE[locale], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: TIME_ZONE,
    timeZoneName: 'short',
  }).format(instant);
}

/** Integer euro cents as the recipient reads them: "€12.50" or "€ 12,50". */
export function formatAmount(locale: Locale, cents: number): string {
  return new Intl.NumberFormat(INTL_LOCALE[locale], { style: 'currency', currency: 'EUR' }).format(
    cents / 100,
  );
}
