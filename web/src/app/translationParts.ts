/**
 * The UI texts come in two parts per language (docs/adr/0081). The shell's part (these top-level
 * sections of the locale files) is all the layouts, the error pages, the location check, the
 * intro and the toasts use: it loads before the first render. The rest (every page, the sidebar
 * and the dialogs) loads with their code, which waits for it (dataComponent.tsx).
 * `translationParts.test.tsx` renders the shell with this part alone. No imports: the build
 * (vite.config.ts) splits the files with it.
 */
export const SHELL_SECTIONS = [
  'app',
  'nav',
  'ui',
  'intro',
  'errorPage',
  'location',
  'languages',
] as const;

export type TranslationPart = 'shell' | 'rest';

/** The module the build makes of one part of a language's file. */
export const TRANSLATIONS_MODULE_PREFIX = 'virtual:translations/';
