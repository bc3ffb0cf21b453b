import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import nl from '../locales/nl.json';
import {
  DEFAULT_LANGUAGE,
  SUPPORTED_LANGUAGES,
  isAppLanguage,
  type AppLanguage,
} from '../lib/locale';

export const LANGUAGE_STORAGE_KEY = 'language';

export const resources = {
  en: { translation: en },
  nl: { translation: nl },
} as const;

export function readStoredLanguage(): AppLanguage {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isAppLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    // Storage can be unavailable (private mode, blocked cookies): fall back to the default.
    return DEFAULT_LANGUAGE;
  }
}

/** A fresh i18next instance with both languages bundled (they are small), initialised synchronously. */
export function createI18n(language: AppLanguage = readStoredLanguage()): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  const syncDocumentLanguage = (lng: string) => {
    document.documentElement.lang = lng;
  };
  syncDocumentLanguage(language);
  instance.on('languageChanged', syncDocumentLanguage);
  return instance;
}

/** Switches the UI language and remembers the choice for the next visit. */
export async function switchLanguage(instance: I18n, language: AppLanguage): Promise<void> {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not persisting is acceptable; the switch itself still happens.
  }
  await instance.changeLanguage(language);
}
