import { describe, expect, it } from 'vitest';
import { en } from '../src/domain/templates/en.ts';
import { escapeHtml } from '../src/domain/templates/layout.ts';
import { format, placeholders, toLocale } from '../src/domain/templates/messages.ts';
import { nl } from '../src/domain/templates/nl.ts';
import {
  CHALLENGE_TEMPLATES,
  LOCALES,
  renderEmail,
  type ChallengeMail,
  type ChallengeTemplateName,
  type EmailTemplate,
  type TemplateName,
} from '../src/domain/templates/index.ts';

const link =
  'https://challenge.test/verify-login?email=sam%40example.test&hash=9f8e7d&expires=1790000000';
const code = '042917';
// 13:35 UTC is 14:35 in Amsterdam in winter (CET).
const expiresAt = new Date('2026-11-22T13:35:00Z');

/** Mail sent whatever the preferences say: no unsubscribe link. */
const templates: EmailTemplate[] = [
  { name: 'login-link', data: { code, link, expiresAt } },
  { name: 'signup-link', data: { code, link, expiresAt } },
  { name: 'password-reset', data: { username: 'sam_the_runner', link, expiresAt } },
  {
    name: 'challenge-invitation-signup',
    data: {
      ownerName: 'Alice Jansen',
      challengeName: 'Juggle five eggs',
      rewardCents: 1250,
      signupUrl: link,
      expiresAt,
    },
  },
  { name: 'payout-completed', data: { amountCents: 123456, walletUrl: link } },
  {
    name: 'payment-account-changed',
    data: {
      ibanEnding: '4300',
      previousIbanEnding: '1234',
      changedAt: expiresAt,
      settingsUrl: link,
    },
  },
  {
    name: 'report-resolved',
    data: { entityType: 'Challenge', outcome: 'removed', reportsUrl: link },
  },
  { name: 'video-processing-failed', data: { reason: 'invalid_video', homeUrl: link } },
  {
    name: 'challenge-share',
    data: {
      sharedBy: 'sam',
      challengeName: 'Juggle three oranges',
      challengeUrl: link,
      optOutUrl: 'https://challenge.test/email-opt-out?token=abc.def',
    },
  },
  {
    name: 'referee-case-escalated',
    data: {
      challengeName: 'Juggle three oranges',
      rewardCents: 1250,
      deadline: expiresAt,
      performer: 'sam',
      consoleUrl: link,
    },
  },
];

const preferencesLink = 'https://challenge.test/email-preferences?token=abc.def';
const challengeMail: ChallengeMail = {
  challengeName: 'Juggle five eggs',
  rewardCents: 1250,
  otherParty: 'Bob de Vries',
  challengeUrl: link,
  preferencesUrl: preferencesLink,
  reason: 'Only four eggs',
  expiresAt,
};
/** Mail that preferences cover: every challenge e-mail, with the preferences link. */
const challengeTemplates = (Object.keys(CHALLENGE_TEMPLATES) as ChallengeTemplateName[]).map(
  (name): EmailTemplate => ({ name, data: challengeMail }),
);

describe('the Dutch texts', () => {
  it('say "challenge" for a challenge throughout, never also "uitdaging", as the web app does (issue 22, point 14)', () => {
    const mixed = Object.entries(nl).filter(([, text]) => /uitdaging/i.test(text));
    expect(mixed).toEqual([]);
    // The noun as the web's Dutch locale uses it, in the mails people get most.
    expect(nl['challengeInvitation.subject']).toMatch(/challenge/);
    expect(nl['challengeAccepted.subject']).toMatch(/challenge/);
  });
});

describe('the template list', () => {
  it('covers every template there is', () => {
    // A record over every name: a new template that this file does not render does not compile.
    const covered: Record<TemplateName, true> = {
      'login-link': true,
      'signup-link': true,
      'password-reset': true,
      'challenge-invitation-signup': true,
      'payout-completed': true,
      'payment-account-changed': true,
      'report-resolved': true,
      'video-processing-failed': true,
      'challenge-share': true,
      'referee-case-escalated': true,
      ...(Object.fromEntries(challengeTemplates.map((t) => [t.name, true])) as Record<
        ChallengeTemplateName,
        true
      >),
    };
    const rendered = [...templates, ...challengeTemplates].map((template) => template.name);
    expect(rendered.sort()).toEqual(Object.keys(covered).sort());
  });
});

describe.each(challengeTemplates)('the $name e-mail', (template) => {
  it.each(LOCALES)('renders in %s, links to the challenge and to the preferences', (locale) => {
    const email = renderEmail(template, locale);
    expect(email.subject).toContain('Juggle five eggs');
    expect(email.text).toContain(`: ${link}`);
    expect(email.html.split(`href="${escapeHtml(link)}"`)).toHaveLength(3);
    expect(email.html).toContain(`<html lang="${locale}">`);
    for (const part of [email.subject, email.text, email.html]) expect(part).not.toMatch(/\{\w+\}/);
    // Not transactional: why it came, and where to change that (also the List-Unsubscribe header).
    expect(email.unsubscribeUrl).toBe(preferencesLink);
    expect(email.text).toContain(preferencesLink);
    expect(email.html).toContain(`href="${escapeHtml(preferencesLink)}"`);
    expect(email.text).toMatch(locale === 'en' ? /unsubscribe/ : /meld je af/);
  });

  it('names the other party, or someone when unknown', () => {
    expect(renderEmail(template, 'en').text).toContain('Bob de Vries');
    const anonymous = {
      ...template,
      data: { ...challengeMail, otherParty: null },
    } as EmailTemplate;
    const text = renderEmail(anonymous, 'nl').text + renderEmail(anonymous, 'en').text;
    expect(text).not.toContain('Bob de Vries');
    expect(text).not.toContain('null');
  });
});

describe('the video-processing-failed mail', () => {
  it.each(LOCALES)('in %s says why, for each reason media gives', (locale) => {
    const reasons = [
      'invalid_video',
      'processing_failed',
      'video_too_long',
      'video_too_large',
    ] as const;
    const texts = reasons.map(
      (reason) =>
        renderEmail({ name: 'video-processing-failed', data: { reason, homeUrl: link } }, locale)
          .text,
    );
    expect(new Set(texts).size).toBe(reasons.length);
    expect(texts[2]).toMatch(locale === 'en' ? /longer than/ : /langer dan/);
    expect(texts[3]).toMatch(/1080p/);
  });
});

describe('the report-resolved mail', () => {
  it.each(LOCALES)("in %s leads to the reporter's list of reports", (locale) => {
    const reportsUrl = 'https://challenge.test/settings/my-reports';
    const email = renderEmail(
      { name: 'report-resolved', data: { entityType: 'User', outcome: 'no_action', reportsUrl } },
      locale,
    );
    const label = locale === 'en' ? 'See your reports' : 'Bekijk je meldingen';
    expect(email.text).toContain(`${label}: ${reportsUrl}`);
    expect(email.html).toContain(`href="${escapeHtml(reportsUrl)}"`);
  });
});

describe('the payment-account-changed notice', () => {
  it.each(LOCALES)(
    'in %s names only the endings of both accounts and the 24-hour check',
    (locale) => {
      const email = renderEmail(
        {
          name: 'payment-account-changed',
          data: {
            ibanEnding: '4300',
            previousIbanEnding: '1234',
            changedAt: expiresAt,
            settingsUrl: link,
          },
        },
        locale,
      );
      expect(email.text).toContain('4300');
      expect(email.text).toContain('1234');
      expect(email.text).toContain('24');
      expect(email.unsubscribeUrl ?? null).toBeNull();
    },
  );
});

describe('challenge e-mails', () => {
  const mail = (
    name: ChallengeTemplateName,
    locale: 'en' | 'nl',
    data: Partial<ChallengeMail> = {},
  ) => renderEmail({ name, data: { ...challengeMail, ...data } }, locale);

  it('show the reward in the recipient’s format', () => {
    expect(mail('challenge-invitation', 'en').text).toContain('for a reward of €12.50');
    expect(mail('challenge-invitation', 'nl').text.replace(/\u00a0/g, ' ')).toContain(
      'met een beloning van € 12,50',
    );
  });

  it('quote the reason of a decline or rejection and the referee’s comment', () => {
    expect(mail('challenge-refused', 'en').text).toContain('Their reason: Only four eggs');
    expect(mail('challenge-sent-to-referee', 'nl').text).toContain('Hun reden: Only four eggs');
    expect(mail('challenge-failed-owner', 'en').text).toContain(
      'The referee’s comment: Only four eggs',
    );
    expect(mail('challenge-failed-challenged', 'en', { reason: null }).text).not.toContain(
      'comment',
    );
  });

  it('tell the invitee until when to answer', () => {
    expect(mail('challenge-invitation', 'en').text).toContain(
      'Accept or decline it before 22 November 2026 at 14:35 CET.',
    );
    expect(mail('challenge-invitation', 'nl').text).toContain('vóór 22 november 2026 om 14:35 CET');
  });

  it('escape names and reasons in the HTML', () => {
    const email = mail('challenge-refused', 'en', {
      otherParty: '<b>bob</b>',
      reason: '<script>x</script>',
      challengeName: 'A & B',
    });
    expect(email.html).not.toContain('<b>bob</b>');
    expect(email.html).not.toContain('<script>x');
    expect(email.html).toContain('&lt;b&gt;bob&lt;/b&gt;');
    expect(email.html).toContain('A &amp; B');
  });

  it('refuse a preferences link that is not a web address', () => {
    expect(() =>
      mail('challenge-accepted', 'en', { preferencesUrl: 'javascript:alert(1)' }),
    ).toThrow(/link/);
  });
});

describe('service e-mails', () => {
  it('invite an address without an account to sign up, in the inviter’s words', () => {
    const [invitation] = templates.filter((t) => t.name === 'challenge-invitation-signup');
    const english = renderEmail(invitation!, 'en');
    expect(english.subject).toBe('You have been challenged: Juggle five eggs');
    expect(english.text).toContain('You have been challenged by Alice Jansen');
    expect(english.text).toContain(`Create your account: ${link}`);
    expect(renderEmail(invitation!, 'nl').text).toContain(`Maak je account aan: ${link}`);
  });

  it('invite an address to see a challenge, with a link that stops invitations (List-Unsubscribe too)', () => {
    const optOutUrl = 'https://challenge.test/email-opt-out?token=abc.def';
    const share: EmailTemplate = {
      name: 'challenge-share',
      data: { sharedBy: 'sam', challengeName: 'Juggle', challengeUrl: link, optOutUrl },
    };
    for (const [locale, label] of [
      ['en', 'Stop invitations'],
      ['nl', 'Stop uitnodigingen'],
    ] as const) {
      const email = renderEmail(share, locale);
      expect(email.unsubscribeUrl).toBe(optOutUrl);
      expect(email.text).toContain(`${label}: ${optOutUrl}`);
      expect(email.html).toContain(`href="${escapeHtml(optOutUrl)}"`);
    }
  });

  it('write what a user wrote on one line, at most 100 characters, escaped in the HTML', () => {
    const name = `<i>Dare</i>\r\nBcc: x@example.test\u2028${'\n'.repeat(300)}${'long '.repeat(1_000)}`;
    const optOutUrl = 'https://challenge.test/email-opt-out?token=abc.def';
    const share = (challengeName: string): EmailTemplate => ({
      name: 'challenge-share',
      data: {
        sharedBy: 'sam\nReply-To: x@example.test',
        challengeName,
        challengeUrl: link,
        optOutUrl,
      },
    });
    const invitation = (challengeName: string): EmailTemplate => ({
      name: 'challenge-invitation',
      data: { ...challengeMail, challengeName },
    });
    for (const template of [share, invitation]) {
      const email = renderEmail(template(name), 'en');
      const plain = renderEmail(template('Dare'), 'en');
      expect(email.subject).not.toMatch(/[\r\n\u2028]/);
      const title = /“([^”]*)”/.exec(email.text)?.[1];
      expect(title).toMatch(/^<i>Dare<\/i> Bcc: x@example\.test long long .*…$/);
      expect([...title!]).toHaveLength(100);
      expect(email.subject).toContain(title);
      expect(email.html).toContain('&lt;i&gt;Dare&lt;/i&gt; Bcc: x@example.test long');
      expect(email.html).not.toContain('<i>Dare');
      // The text part gains no lines from the title: as many as with a plain one.
      expect(email.text.split('\n')).toHaveLength(plain.text.split('\n').length);
    }
    expect(renderEmail(share(name), 'en').subject).toMatch(
      /^sam Reply-To: x@example\.test wants you to see/,
    );
  });

  it('tell the amount of a payout', () => {
    const payout: EmailTemplate = {
      name: 'payout-completed',
      data: { amountCents: 123456, walletUrl: link },
    };
    expect(renderEmail(payout, 'en').subject).toBe('Your payout of €1,234.56 is on its way');
    expect(renderEmail(payout, 'nl').subject.replace(/\u00a0/g, ' ')).toBe(
      'Je uitbetaling van € 1.234,56 is onderweg',
    );
  });

  it('tell each outcome of a report', () => {
    const outcomes = ['removed', 'taken_offline', 'user_banned', 'no_action'] as const;
    const texts = outcomes.map(
      (outcome) =>
        renderEmail(
          { name: 'report-resolved', data: { entityType: 'User', outcome, reportsUrl: link } },
          'en',
        ).text,
    );
    expect(new Set(texts).size).toBe(4);
    expect(texts[2]).toContain('The account broke our rules and has been banned.');
    expect(texts[3]).toContain('no breach of our community guidelines');
  });
});

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

  it.each(LOCALES)('is transactional in %s: no preferences link', (locale) => {
    const email = renderEmail(template, locale);
    expect(`${email.text}${email.html}`).not.toMatch(/unsubscribe|afmelden|email-preferences/i);
    // An invitation is no service message: it carries its address's opt-out link instead.
    if (template.name === 'challenge-share') {
      expect(email.unsubscribeUrl).toBe(template.data.optOutUrl);
    } else {
      expect(email.unsubscribeUrl).toBeUndefined();
    }
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
