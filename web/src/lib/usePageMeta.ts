import { createContext, useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export interface PageMeta {
  title: string;
  description?: string;
}

/**
 * The build's prerender (src/prerender.tsx) renders without effects: it learns the page's title
 * and description from this collector instead, for the `<head>` of the page it writes.
 */
export const PageMetaCollector = createContext<((meta: PageMeta) => void) | null>(null);

/** Sets the document title ("Wallet · Challenge") and, when given, the meta description. */
export function usePageMeta(title: string, description?: string): void {
  const { t } = useTranslation();
  const appName = t('app.name');
  const fullTitle = title ? `${title} · ${appName}` : appName;
  useContext(PageMetaCollector)?.({
    title: fullTitle,
    ...(description === undefined ? {} : { description }),
  });
  useEffect(() => {
    document.title = fullTitle;
    if (description === undefined) return;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [fullTitle, description]);
}
