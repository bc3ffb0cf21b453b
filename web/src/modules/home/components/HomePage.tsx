import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePageMeta } from '../../../lib/usePageMeta';
import { ButtonLink } from '../../../ui/Button';
import { CompassIcon, PlusIcon } from '../../../ui/icons';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { DISCOVER_PARAM, parseDiscoverSection } from '../../shell/discover';
import { DiscoverList } from './DiscoverLists';
import styles from './HomePage.module.css';

/** Set by the gateway on a page asked for with a session cookie (gateway/src/web.ts). */
const SESSION_HINT_ATTRIBUTE = 'data-session';

export function HomePage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const section = parseDiscoverSection(searchParams.get(DISCOVER_PARAM));
  usePageMeta(t(`discover.${section}.title`));
  const { isLoggedIn, loading } = useGetCurrentUser();
  // The hero tells a visitor what this is; someone logged in came for the list, which would
  // otherwise start below the fold of a phone. Decided without waiting for the session check,
  // so nothing moves when it answers (docs/adr/0081): shown until it says logged in, hidden by
  // the stylesheet from the start when the gateway marked the page as asked with a session.
  const hero = !isLoggedIn;
  useEffect(() => {
    // The check says logged out (an expired session, or a log-out since): the hero shows.
    if (!loading && !isLoggedIn) document.documentElement.removeAttribute(SESSION_HINT_ATTRIBUTE);
  }, [loading, isLoggedIn]);
  const Title = hero ? 'h2' : 'h1';

  return (
    <div className={styles.page}>
      {hero ? <Hero /> : null}
      <section className={styles.discover} aria-labelledby="discover-title">
        <div className={styles.discoverHeader}>
          <CompassIcon size={24} aria-hidden="true" />
          <Title id="discover-title" className={styles.discoverTitle}>
            {t(`discover.${section}.title`)}
          </Title>
        </div>
        <p className={styles.discoverText}>{t(`discover.${section}.description`)}</p>
        <DiscoverList key={section} section={section} emptyHeading={hero ? 'h3' : 'h2'} />
      </section>
    </div>
  );
}

function Hero() {
  const { t } = useTranslation();
  return (
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
  );
}
