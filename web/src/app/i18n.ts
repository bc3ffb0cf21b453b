import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getCookie, setCookie } from '../lib/cookies';
import {
  DEFAULT_LANGUAGE,
  SUPPORTED_LANGUAGES,
  isAppLanguage,
  type AppLanguage,
} from '../lib/locale';
import type en from '../locales/en.json';
import type { TranslationPart } from './translationParts';

export const LANGUAGE_STORAGE_KEY = 'language';
/**
 * The same choice as a cookie, for the server: the gateway sends the prerendered pages in the
 * language it names (docs/adr/0081). The browser's copy in localStorage stays the one that counts.
 */
export const LANGUAGE_COOKIE = 'language';
export const LANGUAGE_COOKIE_DAYS = 365;

export type Translations = typeof en;
type Texts = Record<string, unknown>;

/**
 * Each language is two chunks of its own (app/translationParts.ts), loaded when used: the shell's
 * part before the first render, the rest with the first page, dialog or sidebar (about 20 KB
 * gzipped together; a page never needs both languages). The tests register both languages
 * whole at start (src/test/setup.ts), the prerender too.
 */
const LOADERS: Record<AppLanguage, Record<TranslationPart, () => Promise<{ default: Texts }>>> = {
  en: {
    shell: () => import('virtual:translations/en/shell'),
    rest: () => import('virtual:translations/en/rest'),
  },
  nl: {
    shell: () => import('virtual:translations/nl/shell'),
    rest: () => import('virtual:translations/nl/rest'),
  },
};

const PARTS: readonly TranslationPart[] = ['shell', 'rest'];
const loaded = new Map<AppLanguage, Texts>();
const loadedParts = new Set<`${AppLanguage}:${TranslationPart}`>();
/** The app's i18n instances, which learn the texts of a part when it arrives. */
const instances = new Set<I18n>();

function addTexts(language: AppLanguage, texts: Texts): void {
  loaded.set(language, { ...loaded.get(language), ...texts });
  for (const instance of instances) {
    instance.addResourceBundle(language, 'translation', texts, true, true);
  }
}

/** Makes a language's texts (all of them) available to every i18n instance. */
export function registerTranslations(language: AppLanguage, translations: Translations): void {
  addTexts(language, translations);
  for (const part of PARTS) loadedParts.add(`${language}:${part}`);
}

/** Loads parts of a language's texts once; resolves when `createI18n` and the UI can use them. */
export async function loadTranslations(
  language: AppLanguage,
  parts: readonly TranslationPart[] = PARTS,
): Promise<void> {
  await Promise.all(
    parts.map(async (part) => {
      if (loadedParts.has(`${language}:${part}`)) return;
      const texts = (await LOADERS[language][part]()).default;
      if (loadedParts.has(`${language}:${part}`)) return;
      loadedParts.add(`${language}:${part}`);
      addTexts(language, texts);
    }),
  );
}

/** All the texts of the languages the app shows: what a page, a dialog or the sidebar waits for. */
export async function loadTranslationsInUse(): Promise<void> {
  const languages = new Set<AppLanguage>();
  for (const instance of instances) {
    if (isAppLanguage(instance.language)) languages.add(instance.language);
  }
  await Promise.all([...languages].map((language) => loadTranslations(language)));
}

function storedLanguage(): AppLanguage | null {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isAppLanguage(stored)) return stored;
  } catch {
    // Storage can be unavailable (private mode, blocked cookies): the cookie may still say.
  }
  const cookie = typeof document === 'undefined' ? null : getCookie(LANGUAGE_COOKIE);
  return isAppLanguage(cookie) ? cookie : null;
}

export function readStoredLanguage(): AppLanguage {
  return storedLanguage() ?? DEFAULT_LANGUAGE;
}

/**
 * Keeps the server's copy of the choice (the cookie) equal to the browser's; without a cookie the
 * server assumes the default, so a visitor who never chose gets none.
 */
export function rememberLanguageForServer(language: AppLanguage): void {
  if ((getCookie(LANGUAGE_COOKIE) ?? DEFAULT_LANGUAGE) === language) return;
  setCookie(LANGUAGE_COOKIE, language, { days: LANGUAGE_COOKIE_DAYS });
}

/**
 * A fresh i18next instance in `language`, initialised synchronously from the texts loaded so far
 * (`loadTranslations` first); it learns the parts loaded later. `document: false` leaves
 * `<html lang>` alone (the prerender).
 */
export function createI18n(
  language: AppLanguage = readStoredLanguage(),
  { document: syncDocument = true }: { document?: boolean } = {},
): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: Object.fromEntries([...loaded].map(([lng, translation]) => [lng, { translation }])),
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  instances.add(instance);
  if (syncDocument) {
    const syncDocumentLanguage = (lng: string) => {
      document.documentElement.lang = lng;
    };
    syncDocumentLanguage(language);
    instance.on('languageChanged', syncDocumentLanguage);
  }
  return instance;
}

/** Switches the UI language (loading its texts first) and remembers the choice for next visits. */
export async function switchLanguage(instance: I18n, language: AppLanguage): Promise<void> {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not persisting is acceptable; the switch itself still happens.
  }
  rememberLanguageForServer(language);
  await showLanguage(instance, language);
}

/** Shows `language` in `instance`, loading its texts first. */
export async function showLanguage(instance: I18n, language: AppLanguage): Promise<void> {
  await loadTranslations(language);
  await instance.changeLanguage(language);
}
