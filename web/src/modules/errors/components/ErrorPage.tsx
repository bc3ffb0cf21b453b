import { useTranslation } from 'react-i18next';
import { cx } from '../../../lib/cx';
import { usePageMeta } from '../../../lib/usePageMeta';
import { Button, ButtonLink } from '../../../ui/Button';
import { CompassOffIcon, GlobeIcon, ShieldIcon } from '../../../ui/icons';
import layout from '../../../ui/layout.module.css';
import { ERROR_PAGE_STATUS, resolveErrorPageKey } from '../errorPage';
import styles from './ErrorPage.module.css';

export interface ErrorPageProps {
  /** Server or page error identifier; unknown ones show the page-not-found text. */
  identifier?: string | null;
  statusCode?: number;
  /** Replaces the heading, e.g. "Page not found: /x". */
  heading?: string;
}

const LOCATION_KEYS = new Set([
  'ip_lookup_failed',
  'error_verifying_location',
  'access_denied_location',
]);

export function ErrorPage({ identifier, statusCode, heading }: ErrorPageProps) {
  const { t } = useTranslation();
  const key = resolveErrorPageKey(identifier);
  const code = statusCode ?? ERROR_PAGE_STATUS[key];
  const title = heading ?? t(`errorPage.${key}.title`);
  const locationProblem = LOCATION_KEYS.has(key);
  usePageMeta(t(`errorPage.${key}.title`));

  const icon = locationProblem ? (
    <GlobeIcon size={28} />
  ) : key === 'access_denied' ? (
    <ShieldIcon size={28} />
  ) : (
    <CompassOffIcon size={28} />
  );

  return (
    <section
      className={cx(layout.messageCard, styles.page)}
      aria-labelledby="error-page-title"
      data-error-key={key}
    >
      <div className={layout.iconTile} aria-hidden="true">
        {icon}
      </div>
      <p className={styles.code}>
        <span className="visually-hidden">{t('errorPage.statusLabel')} </span>
        {code}
      </p>
      <h1 id="error-page-title" className={styles.title}>
        {title}
      </h1>
      <p className={styles.description}>{t(`errorPage.${key}.description`)}</p>
      <div className={styles.actions}>
        {locationProblem ? (
          <Button variant="primary" onClick={() => window.location.reload()}>
            {t('errorPage.retry')}
          </Button>
        ) : null}
        <ButtonLink to="/" variant={locationProblem ? 'secondary' : 'primary'}>
          {t('errorPage.home')}
        </ButtonLink>
      </div>
    </section>
  );
}
