import { renderLayout, type RenderedEmail } from './layout.ts';
import type { MessageKey } from './en.ts';
import { formatAmount, formatDateTime, nameText, translator, type Locale } from './messages.ts';

export type { RenderedEmail } from './layout.ts';
export { DEFAULT_LOCALE, LOCALES, toLocale, type Locale } from './messages.ts';

/**
 * Every e-mail the platform sends, by template name, with the data it needs. Transactional mail
 * (log-in, sign-up, reset, the invitation of an address without account, payout, report outcome)
 * goes out whatever the user's preferences and carries no unsubscribe link; the challenge mails
 * that preferences cover carry `preferencesUrl`, shown in the footer and as List-Unsubscribe.
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

/** A challenge event told to one of its parties. */
export interface ChallengeMail {
  challengeName: string;
  rewardCents: number;
  /** The other party as the recipient knows them (display name, else username); null if unknown. */
  otherParty: string | null;
  challengeUrl: string;
  /** The signed e-mail preferences link of the recipient. */
  preferencesUrl: string;
  /** A decline or reject reason, or the referee's comment. */
  reason?: string | null;
  /** Until when an invitation can be answered. */
  expiresAt?: Date;
}

/** An invitation to an address that has no account yet: sign up to answer it. */
export interface SignupInvitation {
  ownerName: string | null;
  challengeName: string;
  rewardCents: number;
  signupUrl: string;
  expiresAt: Date;
}

/** A challenge's owner invites this address to look at it (shareChallengeLink). */
export interface ShareMail {
  /** The sender's username; null when unknown. */
  sharedBy: string | null;
  challengeName: string;
  challengeUrl: string;
  /** The address's opt-out page (docs/adr/0074), in the footer and as List-Unsubscribe. */
  optOutUrl: string;
}

export interface PayoutMail {
  amountCents: number;
  walletUrl: string;
}

/** The payout bank account was replaced: a notice, in case it was not the account holder. */
export interface PaymentAccountMail {
  ibanEnding: string;
  previousIbanEnding: string;
  changedAt: Date;
  settingsUrl: string;
}

export type ReportOutcome = 'removed' | 'taken_offline' | 'user_banned' | 'no_action';
export interface ReportMail {
  entityType: 'Challenge' | 'User';
  outcome: ReportOutcome;
  /** The reporter's "My reports" page. */
  reportsUrl: string;
}

export interface VideoFailedMail {
  reason: 'invalid_video' | 'processing_failed' | 'video_too_long' | 'video_too_large';
  homeUrl: string;
}

/** An overdue referee case, to an admin (docs/adr/0058): a link to the console's referee tab. */
export interface EscalationMail {
  challengeName: string;
  rewardCents: number;
  deadline: Date;
  /** Whose video is disputed (a duel has a case per side); null when unknown. */
  performer: string | null;
  consoleUrl: string;
}

/** The challenge e-mails that e-mail preferences cover, by template name -> their texts. */
export const CHALLENGE_TEMPLATES = {
  'challenge-invitation': 'challengeInvitation',
  'challenge-accepted': 'challengeAccepted',
  'challenge-refused': 'challengeRefused',
  'challenge-video-uploaded': 'challengeVideoUploaded',
  'challenge-sent-to-referee': 'challengeSentToReferee',
  'challenge-completed-challenged': 'challengeCompletedChallenged',
  'challenge-completed-owner': 'challengeCompletedOwner',
  'challenge-failed-owner': 'challengeFailedOwner',
  'challenge-failed-challenged': 'challengeFailedChallenged',
  'challenge-expired-owner': 'challengeExpiredOwner',
  'challenge-expired-challenged': 'challengeExpiredChallenged',
  'challenge-cancelled': 'challengeCancelled',
  // Duels (docs/adr/0063): each party performs and judges the other's video.
  'duel-invitation': 'duelInvitation',
  'duel-accepted': 'duelAccepted',
  'duel-video-uploaded': 'duelVideoUploaded',
  'duel-sent-to-referee': 'duelSentToReferee',
  'duel-side-completed': 'duelSideCompleted',
  'duel-side-completed-judge': 'duelSideCompletedJudge',
  'duel-side-failed': 'duelSideFailed',
  'duel-side-failed-judge': 'duelSideFailedJudge',
  'duel-side-expired': 'duelSideExpired',
  'duel-won': 'duelWon',
  'duel-lost': 'duelLost',
  'duel-completed-both': 'duelCompletedBoth',
  'duel-failed-both': 'duelFailedBoth',
  'duel-expired-owner': 'duelExpiredOwner',
  'duel-expired-challenged': 'duelExpiredChallenged',
} as const;
export type ChallengeTemplateName = keyof typeof CHALLENGE_TEMPLATES;
type ChallengePrefix = (typeof CHALLENGE_TEMPLATES)[ChallengeTemplateName];

export type EmailTemplate =
  | { name: 'login-link'; data: CodeAndLink }
  | { name: 'signup-link'; data: CodeAndLink }
  | { name: 'password-reset'; data: PasswordResetLink }
  | { name: ChallengeTemplateName; data: ChallengeMail }
  | { name: 'challenge-invitation-signup'; data: SignupInvitation }
  | { name: 'payout-completed'; data: PayoutMail }
  | { name: 'payment-account-changed'; data: PaymentAccountMail }
  | { name: 'report-resolved'; data: ReportMail }
  | { name: 'video-processing-failed'; data: VideoFailedMail }
  | { name: 'challenge-share'; data: ShareMail }
  | { name: 'referee-case-escalated'; data: EscalationMail };
export type TemplateName = EmailTemplate['name'];

const isChallengeTemplate = (
  template: EmailTemplate,
): template is { name: ChallengeTemplateName; data: ChallengeMail } =>
  Object.hasOwn(CHALLENGE_TEMPLATES, template.name);

export function renderEmail(template: EmailTemplate, locale: Locale): RenderedEmail {
  if (isChallengeTemplate(template)) {
    return challengeEmail(CHALLENGE_TEMPLATES[template.name], template.data, locale);
  }
  switch (template.name) {
    case 'login-link':
      return codeAndLinkEmail('loginLink', template.data, locale);
    case 'signup-link':
      return codeAndLinkEmail('signupLink', template.data, locale);
    case 'password-reset':
      return passwordResetEmail(template.data, locale);
    case 'challenge-invitation-signup':
      return signupInvitationEmail(template.data, locale);
    case 'payout-completed':
      return payoutEmail(template.data, locale);
    case 'payment-account-changed':
      return paymentAccountEmail(template.data, locale);
    case 'report-resolved':
      return reportEmail(template.data, locale);
    case 'video-processing-failed':
      return videoFailedEmail(template.data, locale);
    case 'challenge-share':
      return shareEmail(template.data, locale);
    case 'referee-case-escalated':
      return escalationEmail(template.data, locale);
  }
  throw new Error(`no template ${(template as { name: string }).name}`);
}

/** Texts that only some challenge e-mails have. */
const REASON_KEYS = {
  challengeRefused: 'challengeRefused.reason',
  challengeSentToReferee: 'challengeSentToReferee.reason',
  challengeFailedOwner: 'challengeFailedOwner.reason',
  challengeFailedChallenged: 'challengeFailedChallenged.reason',
  duelSentToReferee: 'duelSentToReferee.reason',
} as const satisfies Partial<Record<ChallengePrefix, MessageKey>>;
const EXPIRY_KEYS = {
  challengeInvitation: 'challengeInvitation.expiry',
  duelInvitation: 'duelInvitation.expiry',
} as const satisfies Partial<Record<ChallengePrefix, MessageKey>>;
const BUTTON_KEYS = {
  challengeVideoUploaded: 'challengeVideoUploaded.button',
  duelVideoUploaded: 'duelVideoUploaded.button',
} as const satisfies Partial<Record<ChallengePrefix, MessageKey>>;

const lookup = <K extends string>(table: Partial<Record<K, MessageKey>>, key: K) =>
  table[key] as MessageKey | undefined;

/** Every challenge e-mail: what happened, the reward, a reason when there is one, the button. */
function challengeEmail(
  prefix: ChallengePrefix,
  data: ChallengeMail,
  locale: Locale,
): RenderedEmail {
  const t = translator(locale);
  const params = {
    name: data.otherParty ? nameText(data.otherParty) : t('common.someone'),
    challenge: nameText(data.challengeName),
    reward: formatAmount(locale, data.rewardCents),
    // Both stakes of a duel: what its winner gets.
    total: formatAmount(locale, data.rewardCents * 2),
    ...(data.expiresAt ? { expiresAt: formatDateTime(locale, data.expiresAt) } : {}),
  };
  const reasonKey = lookup(REASON_KEYS, prefix);
  const expiryKey = lookup(EXPIRY_KEYS, prefix);
  const intro = [t(`${prefix}.intro`, params)];
  if (reasonKey && data.reason) intro.push(t(reasonKey, { reason: data.reason }));
  return renderLayout({
    locale,
    subject: t(`${prefix}.subject`, params),
    preheader: t(`${prefix}.preheader`, params),
    heading: t(`${prefix}.heading`),
    intro,
    action: {
      label: t(lookup(BUTTON_KEYS, prefix) ?? 'common.viewChallenge'),
      url: data.challengeUrl,
      rawLinkIntro: t('common.rawLink'),
    },
    outro: expiryKey && data.expiresAt ? [t(expiryKey, params)] : [],
    signature: t('common.signature'),
    footer: t('common.account'),
    unsubscribe: {
      intro: t('common.preferencesIntro'),
      label: t('common.preferencesLink'),
      url: data.preferencesUrl,
    },
  });
}

function signupInvitationEmail(data: SignupInvitation, locale: Locale): RenderedEmail {
  const t = translator(locale);
  const params = {
    name: data.ownerName ? nameText(data.ownerName) : t('common.someone'),
    challenge: nameText(data.challengeName),
    reward: formatAmount(locale, data.rewardCents),
    expiresAt: formatDateTime(locale, data.expiresAt),
  };
  return renderLayout({
    locale,
    subject: t('challengeInvitationSignup.subject', params),
    preheader: t('challengeInvitationSignup.preheader', params),
    heading: t('challengeInvitationSignup.heading'),
    intro: [t('challengeInvitationSignup.intro', params), t('challengeInvitationSignup.signup')],
    action: {
      label: t('challengeInvitationSignup.button'),
      url: data.signupUrl,
      rawLinkIntro: t('common.rawLink'),
    },
    outro: [t('challengeInvitationSignup.expiry', params)],
    signature: t('common.signature'),
    footer: t('challengeInvitationSignup.footer', params),
  });
}

function shareEmail(data: ShareMail, locale: Locale): RenderedEmail {
  const t = translator(locale);
  const params = {
    name: data.sharedBy ? nameText(data.sharedBy) : t('common.someone'),
    challenge: nameText(data.challengeName),
  };
  return renderLayout({
    locale,
    subject: t('challengeShare.subject', params),
    preheader: t('challengeShare.preheader', params),
    heading: t('challengeShare.heading'),
    intro: [t('challengeShare.intro', params)],
    action: {
      label: t('common.viewChallenge'),
      url: data.challengeUrl,
      rawLinkIntro: t('common.rawLink'),
    },
    outro: [],
    signature: t('common.signature'),
    footer: t('challengeShare.footer', params),
    unsubscribe: {
      intro: t('challengeShare.optOutIntro'),
      label: t('challengeShare.optOutLink'),
      url: data.optOutUrl,
    },
  });
}

function payoutEmail(data: PayoutMail, locale: Locale): RenderedEmail {
  const t = translator(locale);
  const params = { amount: formatAmount(locale, data.amountCents) };
  return renderLayout({
    locale,
    subject: t('payoutCompleted.subject', params),
    preheader: t('payoutCompleted.preheader', params),
    heading: t('payoutCompleted.heading'),
    intro: [t('payoutCompleted.intro', params)],
    action: {
      label: t('payoutCompleted.button'),
      url: data.walletUrl,
      rawLinkIntro: t('common.rawLink'),
    },
    outro: [t('payoutCompleted.ignore')],
    signature: t('common.signature'),
    footer: t('common.account'),
  });
}

function paymentAccountEmail(data: PaymentAccountMail, locale: Locale): RenderedEmail {
  const t = translator(locale);
  const params = {
    ending: data.ibanEnding,
    previous: data.previousIbanEnding,
    time: formatDateTime(locale, data.changedAt),
  };
  return renderLayout({
    locale,
    subject: t('paymentAccountChanged.subject'),
    preheader: t('paymentAccountChanged.preheader', params),
    heading: t('paymentAccountChanged.heading'),
    intro: [t('paymentAccountChanged.intro', params), t('paymentAccountChanged.hold')],
    action: {
      label: t('paymentAccountChanged.button'),
      url: data.settingsUrl,
      rawLinkIntro: t('common.rawLink'),
    },
    outro: [t('paymentAccountChanged.ignore')],
    signature: t('common.signature'),
    footer: t('common.account'),
  });
}

const REPORT_OUTCOMES = {
  removed: 'reportResolved.outcomeRemoved',
  taken_offline: 'reportResolved.outcomeTakenOffline',
  user_banned: 'reportResolved.outcomeUserBanned',
  no_action: 'reportResolved.outcomeNoAction',
} as const satisfies Record<ReportOutcome, MessageKey>;

function reportEmail(data: ReportMail, locale: Locale): RenderedEmail {
  const t = translator(locale);
  return renderLayout({
    locale,
    subject: t('reportResolved.subject'),
    preheader: t('reportResolved.preheader'),
    heading: t('reportResolved.heading'),
    intro: [
      t(data.entityType === 'User' ? 'reportResolved.introUser' : 'reportResolved.introChallenge'),
      t(REPORT_OUTCOMES[data.outcome]),
    ],
    action: {
      label: t('reportResolved.button'),
      url: data.reportsUrl,
      rawLinkIntro: t('common.rawLink'),
    },
    outro: [t('reportResolved.thanks')],
    signature: t('common.signature'),
    footer: t('common.account'),
  });
}

/** Why the video failed, in the uploader's words: what to do about it. */
const VIDEO_FAILED_INTRO = {
  invalid_video: 'videoProcessingFailed.introInvalidVideo',
  processing_failed: 'videoProcessingFailed.introProcessingFailed',
  video_too_long: 'videoProcessingFailed.introTooLong',
  video_too_large: 'videoProcessingFailed.introTooLarge',
} as const satisfies Record<VideoFailedMail['reason'], string>;

function videoFailedEmail(data: VideoFailedMail, locale: Locale): RenderedEmail {
  const t = translator(locale);
  return renderLayout({
    locale,
    subject: t('videoProcessingFailed.subject'),
    preheader: t('videoProcessingFailed.preheader'),
    heading: t('videoProcessingFailed.heading'),
    intro: [t(VIDEO_FAILED_INTRO[data.reason]), t('videoProcessingFailed.nextStep')],
    action: {
      label: t('videoProcessingFailed.button'),
      url: data.homeUrl,
      rawLinkIntro: t('common.rawLink'),
    },
    outro: [],
    signature: t('common.signature'),
    footer: t('common.account'),
  });
}

function escalationEmail(data: EscalationMail, locale: Locale): RenderedEmail {
  const t = translator(locale);
  const params = {
    challenge: nameText(data.challengeName),
    reward: formatAmount(locale, data.rewardCents),
    deadline: formatDateTime(locale, data.deadline),
    performer: data.performer ? nameText(data.performer) : '',
  };
  const intro = data.performer ? 'refereeCaseEscalated.introSide' : 'refereeCaseEscalated.intro';
  return renderLayout({
    locale,
    subject: t('refereeCaseEscalated.subject', params),
    preheader: t('refereeCaseEscalated.preheader'),
    heading: t('refereeCaseEscalated.heading'),
    intro: [t(intro, params), t('refereeCaseEscalated.nextStep')],
    action: {
      label: t('refereeCaseEscalated.button'),
      url: data.consoleUrl,
      rawLinkIntro: t('common.rawLink'),
    },
    outro: [],
    signature: t('common.signature'),
    footer: t('refereeCaseEscalated.footer'),
  });
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
  const params = {
    username: nameText(data.username),
    expiresAt: formatDateTime(locale, data.expiresAt),
  };
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
