import { renderLayout, type RenderedEmail } from './layout.ts';
import { formatDateTime, translator, type Locale } from './messages.ts';

export type { RenderedEmail } from './layout.ts';
export { DEFAULT_LOCALE, LOCALES, toLocale, type Locale } from './messages.ts';

/**
 * Every e-mail the platform sends, by template name, with the data it needs. Transactional mail
 * (these three) goes out whatever the user's preferences and carries no unsubscribe link.
 */
export interface CodeAndLink {
  code: string;
  link: string;
  expiresAt: Date;
}
export interface PasswordResetLink {
  username: string;
  link: string;
  expiresAt: Date;
}

export type EmailTemplate =
  | { name: 'login-link'; data: CodeAndLink }
  | { name: 'signup-link'; data: CodeAndLink }
  | { name: 'password-reset'; data: PasswordResetLink };
export type TemplateName = EmailTemplate['name'];

export function renderEmail(template: EmailTemplate, locale: Locale): RenderedEmail {
  switch (template.name) {
    case 'login-link':
      return codeAndLinkEmail('loginLink', template.data, locale);
    case 'signup-link':
      return codeAndLinkEmail('signupLink', template.data, locale);
    case 'password-reset':
      return passwordResetEmail(template.data, locale);
  }
}

/** Log-in and sign-up: the same shape, a code to type and a link to click. */
function codeAndLinkEmail(
  prefix: 'loginLink' | 'signupLink',
  data: CodeAndLink,
  locale: Locale,
): RenderedEmail {
  const t = translator(locale);
  const params = { code: data.code, expiresAt: formatDateTime(locale, data.expiresAt) };
  return renderLayout({
    locale,
    subject: t(`${prefix}.subject`, params),
    preheader: t(`${prefix}.preheader`, params),
    heading: t(`${prefix}.heading`),
    intro: [t(`${prefix}.intro`)],
    code: { value: data.code, textLabel: t('common.code', params) },
    action: {
      intro: t(`${prefix}.buttonIntro`),
      label: t(`${prefix}.button`),
      url: data.link,
      rawLinkIntro: t('common.rawLink'),
    },
    outro: [t(`${prefix}.expiry`, params), t(`${prefix}.ignore`)],
    signature: t('common.signature'),
    footer: t('common.automatic'),
  });
}

function passwordResetEmail(data: PasswordResetLink, locale: Locale): RenderedEmail {
  const t = translator(locale);
  const params = { username: data.username, expiresAt: formatDateTime(locale, data.expiresAt) };
  return renderLayout({
    locale,
    subject: t('passwordReset.subject'),
    preheader: t('passwordReset.preheader', params),
    heading: t('passwordReset.heading'),
    intro: [t('passwordReset.greeting', params), t('passwordReset.intro')],
    action: {
      label: t('passwordReset.button'),
      url: data.link,
      rawLinkIntro: t('common.rawLink'),
    },
    outro: [t('passwordReset.expiry', params), t('passwordReset.ignore')],
    signature: t('common.signature'),
    footer: t('common.automatic'),
  });
}
