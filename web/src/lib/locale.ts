export const SUPPORTED_LANGUAGES = ['en', 'nl'] as const;
export type AppLanguage = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: AppLanguage = 'en';

export function isAppLanguage(value: unknown): value is AppLanguage {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** The Intl locale for a UI language: Dutch formats as nl-NL, everything else as en-GB. */
export function intlLocale(language: string | undefined): 'nl-NL' | 'en-GB' {
  return language?.toLowerCase().startsWith('nl') ? 'nl-NL' : 'en-GB';
}
