import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the document title ("Wallet · Challenge") and, when given, the meta description. */
export function usePageMeta(title: string, description?: string): void {
  const { t } = useTranslation();
  const appName = t('app.name');
  useEffect(() => {
    document.title = title ? `${title} · ${appName}` : appName;
    if (description === undefined) return;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [title, description, appName]);
}
