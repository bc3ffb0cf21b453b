import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePageMeta } from '../../../lib/usePageMeta';
import { ButtonLink } from '../../../ui/Button';
import { CompassIcon, PlusIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import { DISCOVER_PARAM, parseDiscoverSection } from '../../shell/discover';
import styles from './HomePage.module.css';

export function HomePage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const section = parseDiscoverSection(searchParams.get(DISCOVER_PARAM));
  usePageMeta(t(`discover.${section}.title`));

  return (
    <div className={styles.page}>
      <section className={styles.hero} aria-labelledby="home-hero-title">
        <p className={styles.kicker}>{t('home.kicker')}</p>
        <h1 id="home-hero-title" className={styles.heroTitle}>
          {t('app.tagline')}
        </h1>
        <p className={styles.heroText}>{t('home.intro')}</p>
        <ButtonLink
          to="/challenge/create/step-1"
          variant="action"
          size="lg"
          iconStart={<PlusIcon size={20} />}
        >
          {t('nav.startChallenge')}
        </ButtonLink>
      </section>
      <PagePlaceholder
        as="h2"
        icon={<CompassIcon size={28} />}
        title={t(`discover.${section}.title`)}
        description={t(`discover.${section}.description`)}
      />
    </div>
  );
}
