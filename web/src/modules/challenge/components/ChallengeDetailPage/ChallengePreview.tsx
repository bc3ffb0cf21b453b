import { useTranslation } from 'react-i18next';
import layout from '../../../../ui/layout.module.css';
import styles from '../Challenge.module.css';

/** The fields the gateway writes into the preview (docs/adr/0100). */
export const PREVIEW_FIELDS = ['challengeName', 'challengeDescription'] as const;

/**
 * The challenge page before its scripts have run: the title and the description as the whole
 * page shows them, which the gateway writes into the prerendered page from the challenge it
 * looked up for the visitor (a template of this component, web/scripts/build.mjs), so that the
 * page's largest text paints with the HTML (docs/adr/0100). Hydration renders it once more from
 * the same data; the whole page follows right after.
 */
export function ChallengePreview({
  challengeName,
  challengeDescription,
}: Record<(typeof PREVIEW_FIELDS)[number], string>) {
  const { t } = useTranslation();
  return (
    <article className={styles.page}>
      <header className={styles.hero}>
        <h1 className={styles.title}>{challengeName}</h1>
      </header>
      <section className={layout.panel} aria-label={t('challenge.detail.descriptionTitle')}>
        <h2 className={layout.panelTitle}>{t('challenge.detail.descriptionTitle')}</h2>
        <p className={styles.description}>{challengeDescription}</p>
      </section>
    </article>
  );
}
