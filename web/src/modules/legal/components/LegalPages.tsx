import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CHUNK_RELOAD_STORAGE_KEY } from '../../../app/chunkReload';
import { appConfig } from '../../../app/config';
import { LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY } from '../../../app/i18n';
import { usePageMeta } from '../../../lib/usePageMeta';
import { PageHeader } from '../../../ui/PageHeader';
import { DRAFT_STORAGE_KEY } from '../../challenge/draft';
import { INTRO_COOKIE } from '../../intro/introCookie';
import { ALLOWED_STORAGE_KEY } from '../../location/locationVerdict';
import styles from './LegalPages.module.css';

/** The spec's list of terms sections, in its order (section 2, "Terms page"). */
const TERMS_SECTIONS = [
  'copyright',
  'intellectualProperty',
  'service',
  'compliance',
  'cookies',
  'privacy',
  'community',
  'payments',
  'accessibility',
  'unlawfulContent',
] as const;

/** Privacy links lead off the site: they open in a new tab (spec). */
const PRIVACY_LINKS = [
  { key: 'gdpr', href: 'https://eur-lex.europa.eu/eli/reg/2016/679/oj' },
  { key: 'authority', href: 'https://autoriteitpersoonsgegevens.nl/' },
] as const;

/** /terms: every section the spec lists, with a table of contents. */
export function TermsPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.terms.title'), t('pages.terms.metaDescription'));
  return (
    <article className={styles.page}>
      <PageHeader title={t('pages.terms.title')} subtitle={t('legal.terms.intro')} />
      <nav className={styles.contents} aria-label={t('legal.terms.contents')}>
        <ol>
          {TERMS_SECTIONS.map((section) => (
            <li key={section}>
              <a href={`#terms-${section}`}>{t(`legal.terms.sections.${section}.title`)}</a>
            </li>
          ))}
        </ol>
      </nav>
      {TERMS_SECTIONS.map((section) => (
        <section
          key={section}
          id={`terms-${section}`}
          className={styles.section}
          aria-labelledby={`terms-${section}-title`}
        >
          <h2 id={`terms-${section}-title`} className={styles.sectionTitle}>
            {t(`legal.terms.sections.${section}.title`)}
          </h2>
          <p>{t(`legal.terms.sections.${section}.text`)}</p>
          {section === 'privacy' ? (
            <ul className={styles.links}>
              {PRIVACY_LINKS.map((link) => (
                <li key={link.key}>
                  <a href={link.href} target="_blank" rel="noopener noreferrer">
                    {t(`legal.terms.privacyLinks.${link.key}`)}{' '}
                    <span className={styles.hint}>{t('legal.terms.privacyLinks.newTab')}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          {section === 'cookies' ? (
            <p>
              <Link to="/cookies">{t('legal.terms.cookieLink')}</Link>
            </p>
          ) : null}
          {section === 'community' ? (
            // The guidelines themselves, public like the terms (issue 22, point 14): the settings
            // page that also shows them is behind the log-in.
            <Guidelines termsLink={false} />
          ) : null}
        </section>
      ))}
    </article>
  );
}

/** Everything the app keeps in the browser; the session cookie is the gateway's (HTTP-only). */
const STORED_ITEMS = [
  { key: 'session', name: 'session', kind: 'cookie' },
  { key: 'intro', name: INTRO_COOKIE, kind: 'cookie' },
  { key: 'languageCookie', name: LANGUAGE_COOKIE, kind: 'cookie' },
  { key: 'language', name: LANGUAGE_STORAGE_KEY, kind: 'local' },
  { key: 'draft', name: DRAFT_STORAGE_KEY, kind: 'local' },
  { key: 'location', name: ALLOWED_STORAGE_KEY, kind: 'session' },
  { key: 'reload', name: CHUNK_RELOAD_STORAGE_KEY, kind: 'session' },
] as const;

/** /cookies: each cookie and stored item, its purpose and how long it stays. */
export function CookiesPage() {
  const { t } = useTranslation();
  usePageMeta(t('pages.cookies.title'), t('pages.cookies.metaDescription'));
  return (
    <article className={styles.page}>
      <PageHeader title={t('pages.cookies.title')} subtitle={t('legal.cookies.intro')} />
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">{t('legal.cookies.columns.name')}</th>
              <th scope="col">{t('legal.cookies.columns.kind')}</th>
              <th scope="col">{t('legal.cookies.columns.purpose')}</th>
              <th scope="col">{t('legal.cookies.columns.duration')}</th>
            </tr>
          </thead>
          <tbody>
            {STORED_ITEMS.map((item) => (
              <tr key={item.key}>
                <th scope="row">
                  <code>{item.name}</code>
                </th>
                <td data-label={t('legal.cookies.columns.kind')}>
                  {t(`legal.cookies.kinds.${item.kind}`)}
                </td>
                <td data-label={t('legal.cookies.columns.purpose')}>
                  {t(`legal.cookies.items.${item.key}.purpose`)}
                </td>
                <td data-label={t('legal.cookies.columns.duration')}>
                  {t(`legal.cookies.items.${item.key}.duration`)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className={styles.footnote}>
        <Link to="/terms#terms-cookies">{t('legal.cookies.termsLink')}</Link>
      </p>
    </article>
  );
}

const GUIDELINE_SECTIONS = {
  do: ['i1', 'i2', 'i3', 'i4'],
  dont: ['i1', 'i2', 'i3', 'i4'],
  compliance: ['i1', 'i2', 'i3'],
} as const;

/**
 * The community guidelines and compliance rules (the terms' community section and settings'
 * guidelines page); `termsLink` false inside the terms themselves.
 */
export function Guidelines({ termsLink = true }: { termsLink?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={styles.guidelines}>
      <p>{t('legal.guidelines.intro')}</p>
      {Object.entries(GUIDELINE_SECTIONS).map(([section, items]) => (
        <section key={section} className={styles.section}>
          <h3 className={styles.sectionTitle}>
            {t(`legal.guidelines.sections.${section as keyof typeof GUIDELINE_SECTIONS}.title`)}
          </h3>
          <ul>
            {items.map((item) => (
              <li key={item}>
                {t(
                  `legal.guidelines.sections.${section as keyof typeof GUIDELINE_SECTIONS}.items.${item}` as 'legal.guidelines.sections.do.items.i1',
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
      {termsLink ? (
        <p>
          <Link to="/terms">{t('legal.guidelines.termsLink')}</Link>
        </p>
      ) : null}
    </div>
  );
}

/** /contact: how to reach support; the sidebar's Support entry when no chat number is set. */
export function ContactPage() {
  const { t } = useTranslation();
  usePageMeta(t('legal.contact.title'));
  const { supportUrl, supportEmail } = appConfig;
  return (
    <article className={styles.page}>
      <PageHeader title={t('legal.contact.title')} subtitle={t('legal.contact.intro')} />
      {supportUrl ? (
        <section className={styles.section}>
          <h2 className={styles.sectionTitle}>{t('legal.contact.chatTitle')}</h2>
          <p>{t('legal.contact.chatText')}</p>
          <p>
            <a href={supportUrl} target="_blank" rel="noopener noreferrer">
              {t('legal.contact.chatLink')}{' '}
              <span className={styles.hint}>{t('legal.terms.privacyLinks.newTab')}</span>
            </a>
          </p>
        </section>
      ) : null}
      {supportEmail ? (
        <section className={styles.section}>
          <h2 className={styles.sectionTitle}>{t('legal.contact.emailTitle')}</h2>
          <p className={styles.wrapAnywhere}>
            <Trans
              i18nKey="legal.contact.emailText"
              values={{ email: supportEmail }}
              components={{ email: <a href={`mailto:${supportEmail}`} /> }}
            />
          </p>
        </section>
      ) : null}
      {!supportUrl && !supportEmail ? (
        <p className={styles.section}>{t('legal.contact.noChannel')}</p>
      ) : null}
      <section className={styles.section}>
        <h2 className={styles.sectionTitle}>{t('legal.contact.reportTitle')}</h2>
        <p>{t('legal.contact.reportText')}</p>
      </section>
      <section className={styles.section}>
        <h2 className={styles.sectionTitle}>{t('legal.contact.rulesTitle')}</h2>
        <ul className={styles.links}>
          <li>
            <Link to="/terms#terms-community">{t('legal.contact.guidelinesLink')}</Link>
          </li>
          <li>
            <Link to="/terms">{t('legal.contact.termsLink')}</Link>
          </li>
        </ul>
      </section>
    </article>
  );
}
