import { describe, expect, it } from 'vitest';
import { en } from '../src/domain/templates/en.ts';
import { escapeHtml } from '../src/domain/templates/layout.ts';
import { format, placeholders, toLocale } from '../src/domain/templates/messages.ts';
import { nl } from '../src/domain/templates/nl.ts';
import { LOCALES, renderEmail, type EmailTemplate } from '../src/domain/templates/index.ts';

const link =
  'https://challenge.test/verify-login?email=sam%40example.test&hash=9f8e7d&expires=1790000000';
const code = '042917';
// 13:35 UTC is 14:35 in Amsterdam in winter (CET).
const expiresAt = new Date('2026-11-22T13:35:00Z');

const templates: EmailTemplate[] = [
  { name: 'login-link', data: { code, link, expiresAt } },
  { name: 'signup-link', data: { code, link, expiresAt } },
  { name: 'password-reset', data: { username: 'sam_the_runner', link, expiresAt } },
];

describe.each(templates)('the $name e-mail', (template) => {
  it.each(LOCALES)('renders in %s with the link as a button and as a raw URL', (locale) => {
    const email = renderEmail(template, locale);
    expect(email.subject.length).toBeGreaterThan(5);
    expect(email.text).toContain(link);
    // In HTML the link is escaped (& -> &amp;) and appears twice: the button and the raw URL.
    expect(email.html.split(`href="${escapeHtml(link)}"`)).toHaveLength(3);
    expect(email.html).toContain(`<html lang="${locale}">`);
    // Every placeholder was filled in.
    for (const part of [email.subject, email.text, email.html]) expect(part).not.toMatch(/\{\w+\}/);
  });

  it.each(LOCALES)('is transactional in %s: no unsubscribe link', (locale) => {
    const email = renderEmail(template, locale);
    expect(`${email.text}${email.html}`).not.toMatch(/unsubscribe|afmelden|email-preferences/i);
  });
});

describe('log-in and sign-up e-mails', () => {
  it.each(LOCALES)('carry the code in subject, text and HTML (%s), large in the HTML', (locale) => {
    for (const name of ['login-link', 'signup-link'] as const) {
      const email = renderEmail({ name, data: { code, link, expiresAt } }, locale);
      expect(email.subject).toContain(code);
      expect(email.text).toContain(code);
      expect(email.html).toMatch(new RegExp(`font-size:36px[^>]*>${code}</span>`));
    }
  });

  it('speak the recipient’s language', () => {
    const data = { code, link, expiresAt };
    expect(renderEmail({ name: 'login-link', data }, 'en').subject).toBe(
      `Your Challenge log-in code: ${code}`,
    );
    expect(renderEmail({ name: 'login-link', data }, 'nl').subject).toBe(
      `Je inlogcode voor Challenge: ${code}`,
    );
    expect(renderEmail({ name: 'login-link', data }, 'nl').text).toContain(
      'Inloggen bij Challenge',
    );
    expect(renderEmail({ name: 'signup-link', data }, 'en').text).toContain(
      'Complete your account',
    );
    expect(renderEmail({ name: 'signup-link', data }, 'nl').text).toContain('Maak je account af');
  });

  it('show the expiry in the recipient’s locale, Amsterdam time', () => {
    const data = { code, link, expiresAt };
    expect(renderEmail({ name: 'login-link', data }, 'en').text).toContain(
      'expire on 22 November 2026 at 14:35 CET',
    );
    expect(renderEmail({ name: 'login-link', data }, 'nl').text).toContain(
      'verlopen op 22 november 2026 om 14:35 CET',
    );
    const summer = { ...data, expiresAt: new Date('2026-07-01T13:35:00Z') };
    expect(renderEmail({ name: 'signup-link', data: summer }, 'nl').html).toContain(
      '1 juli 2026 om 15:35 CEST',
    );
  });
});

describe('the password reset e-mail', () => {
  it('greets the user by name and has no code', () => {
    const data = { username: 'sam_the_runner', link, expiresAt };
    const english = renderEmail({ name: 'password-reset', data }, 'en');
    expect(english.subject).toBe('Reset your Challenge password');
    expect(english.text).toContain('Hi sam_the_runner,');
    expect(english.text).toContain('expires on 22 November 2026 at 14:35 CET');
    const dutch = renderEmail({ name: 'password-reset', data }, 'nl');
    expect(dutch.subject).toBe('Stel je wachtwoord voor Challenge opnieuw in');
    expect(dutch.text).toContain('Hoi sam_the_runner,');
    expect(dutch.text).toContain('Nieuw wachtwoord kiezen: https://challenge.test/');
  });
});

describe('HTML escaping', () => {
  const hostileName = `<script>alert("x")</script>&'`;
  const hostileLink = 'https://challenge.test/reset?next="><img src=x onerror=alert(1)>';

  it('escapes every interpolated value', () => {
    const email = renderEmail(
      { name: 'password-reset', data: { username: hostileName, link: hostileLink, expiresAt } },
      'en',
    );
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('<img');
    expect(email.html).not.toContain('"><img');
    expect(email.html).toContain('Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;,');
    expect(email.html).toContain(`href="${escapeHtml(hostileLink)}"`);
    // The plain-text part shows the value as it is: text is never interpreted.
    expect(email.text).toContain(`Hi ${hostileName},`);
  });

  it('refuses a link that is not a web address', () => {
    for (const bad of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'not a url']) {
      expect(() =>
        renderEmail({ name: 'login-link', data: { code, link: bad, expiresAt } }, 'en'),
      ).toThrow(/link/);
    }
  });
});

describe('the locale tables', () => {
  it('have exactly the same keys in English and Dutch', () => {
    const missingInDutch = Object.keys(en).filter((key) => !Object.hasOwn(nl, key));
    const missingInEnglish = Object.keys(nl).filter((key) => !Object.hasOwn(en, key));
    expect(missingInDutch).toEqual([]);
    expect(missingInEnglish).toEqual([]);
  });

  it('have the same placeholders in each message, and no empty message', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(nl[key]).sort(), key).toEqual(placeholders(en[key]).sort());
      expect(nl[key].trim(), key).not.toBe('');
      expect(en[key].trim(), key).not.toBe('');
    }
  });

  it('are translated, not copied', () => {
    const copied = (Object.keys(en) as (keyof typeof en)[]).filter((key) => en[key] === nl[key]);
    expect(copied).toEqual([]);
  });
});

describe('messages', () => {
  it('fills placeholders and refuses to leave one empty', () => {
    expect(format('Your code: {code}', { code: '123456' })).toBe('Your code: 123456');
    expect(() => format('expires on {expiresAt}', {})).toThrow(/expiresAt/);
  });

  it('default to English for an unknown or missing locale', () => {
    expect(toLocale('nl')).toBe('nl');
    expect(toLocale('en')).toBe('en');
    expect(toLocale('de')).toBe('en');
    expect(toLocale(undefined)).toBe('en');
    expect(toLocale(null)).toBe('en');
  });
});
