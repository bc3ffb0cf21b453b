import { isValidEmail, isValidUsername } from '../../lib/validation';
import type { CreateChallengeInput } from './graphql/CreateChallenge';

/**
 * The create-challenge draft (product spec, section 3), kept in localStorage so that a reload, a
 * log-in or a top-up in between loses nothing. The spec's fields and defaults come first; the
 * rest are what step 2 also asks (docs/adr/0031).
 */
export interface ChallengeDraft {
  name: string;
  description: string;
  /** The reward in euros as the spec's draft keeps it (default 5); sent as integer cents. */
  amount: number;
  /** 1 to 9 (default 2); ignored while `expirationDate` is set. */
  expirationTimeWeeks: number;
  visibility: 'public' | 'private';
  challengedUsername: string;
  challengedUserEmailsString: string;
  /** When the draft was last changed (epoch milliseconds). */
  timestamp: number;
  acceptCredit: boolean;
  /** Who is challenged: a friend by username, or friends by e-mail. */
  target: 'username' | 'email';
  tags: string[];
  /** A calendar date (YYYY-MM-DD) instead of a duration; empty for a duration. */
  expirationDate: string;
  challengeType: 'solo' | 'duel';
}

export const DRAFT_STORAGE_KEY = 'challenge-draft';
/** A draft untouched for longer than this is forgotten (a stale reward or date would mislead). */
export const DRAFT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export const NAME_MIN = 3;
export const NAME_MAX = 100;
export const DESCRIPTION_MIN = 3;
export const DESCRIPTION_MAX = 300;
/** The spec's client rule; the server's configured minimum replaces it once known (challengeRules). */
export const AMOUNT_MIN = 0.1;
export const WEEKS_MIN = 1;
export const WEEKS_MAX = 9;
export const TAGS_MAX = 10;
export const TAG_MAX_LENGTH = 30;
export const REASON_MAX = 800;

export function defaultDraft(now = Date.now()): ChallengeDraft {
  return {
    name: '',
    description: '',
    amount: 5,
    expirationTimeWeeks: 2,
    visibility: 'public',
    challengedUsername: '',
    challengedUserEmailsString: '',
    timestamp: now,
    acceptCredit: false,
    target: 'username',
    tags: [],
    expirationDate: '',
    challengeType: 'solo',
  };
}

const str = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);

/** A stored draft, field by field (anything unreadable falls back to its default). */
export function parseDraft(text: string | null, now = Date.now()): ChallengeDraft {
  const base = defaultDraft(now);
  if (!text) return base;
  let raw: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return base;
    raw = parsed as Record<string, unknown>;
  } catch {
    return base;
  }
  const timestamp = typeof raw['timestamp'] === 'number' ? raw['timestamp'] : now;
  if (now - timestamp > DRAFT_MAX_AGE_MS) return base;
  const amount = raw['amount'];
  const weeks = raw['expirationTimeWeeks'];
  const tags = Array.isArray(raw['tags'])
    ? raw['tags'].filter((tag): tag is string => typeof tag === 'string').slice(0, TAGS_MAX)
    : [];
  return {
    name: str(raw['name'], ''),
    description: str(raw['description'], ''),
    amount: typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 ? amount : 5,
    expirationTimeWeeks: typeof weeks === 'number' && Number.isInteger(weeks) ? weeks : 2,
    visibility: raw['visibility'] === 'private' ? 'private' : 'public',
    challengedUsername: str(raw['challengedUsername'], ''),
    challengedUserEmailsString: str(raw['challengedUserEmailsString'], ''),
    timestamp,
    acceptCredit: raw['acceptCredit'] === true,
    target: raw['target'] === 'email' ? 'email' : 'username',
    tags,
    expirationDate: /^\d{4}-\d{2}-\d{2}$/.test(str(raw['expirationDate'], ''))
      ? str(raw['expirationDate'], '')
      : '',
    challengeType: raw['challengeType'] === 'duel' ? 'duel' : 'solo',
  };
}

/** Characters as a person counts them (an emoji is one), as the server counts them. */
export function charCount(text: string): number {
  return [...text].length;
}

/** The reward in integer cents (ADR 6); the draft keeps euros with at most two decimals. */
export function amountInCents(amount: number): number {
  return Math.round(amount * 100);
}

/** The comma-separated addresses, trimmed, empty entries dropped. */
export function splitEmails(text: string): string[] {
  return text
    .split(/[,;\s]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** A tag as sent: trimmed, without a leading #, inner spaces collapsed. */
export function normalizeTag(text: string): string {
  return text.trim().replace(/^#+/, '').replace(/\s+/g, ' ').trim();
}

export type DraftField =
  'target' | 'name' | 'description' | 'amount' | 'expiration' | 'tags' | 'acceptCredit';

/** A broken rule: the field and the locale key (under `createChallenge.errors`) with its values. */
export interface DraftProblem {
  field: DraftField;
  key: string;
  values?: Record<string, string | number>;
}

/** Who is viewing: to refuse challenging yourself before asking the server. */
export interface DraftViewer {
  username?: string | null;
}

/**
 * Step 1 (spec section 5): a target, and name and description of at least 3 characters with a
 * description of at most 300.
 */
/**
 * The username a username-target draft names, as it is looked up (no "@", trimmed), when the
 * form itself has nothing against it; null otherwise (nothing to look up).
 */
export function lookupUsername(draft: ChallengeDraft, viewer: DraftViewer = {}): string | null {
  if (draft.target !== 'username') return null;
  const targetRefused = step1Problems(draft, viewer).some((problem) => problem.field === 'target');
  return targetRefused ? null : draft.challengedUsername.trim().replace(/^@/, '');
}

export function step1Problems(draft: ChallengeDraft, viewer: DraftViewer = {}): DraftProblem[] {
  const problems: DraftProblem[] = [];
  if (draft.target === 'username') {
    const username = draft.challengedUsername.trim().replace(/^@/, '');
    if (!username) problems.push({ field: 'target', key: 'usernameRequired' });
    else if (!isValidUsername(username)) problems.push({ field: 'target', key: 'usernameInvalid' });
    else if (viewer.username && username.toLowerCase() === viewer.username.toLowerCase())
      problems.push({ field: 'target', key: 'yourself' });
  } else {
    const emails = splitEmails(draft.challengedUserEmailsString);
    const invalid = emails.filter((email) => !isValidEmail(email));
    const lowered = emails.map((email) => email.toLowerCase());
    const duplicate = lowered.find((email, index) => lowered.indexOf(email) !== index);
    if (emails.length === 0 || invalid.length === emails.length)
      problems.push({ field: 'target', key: 'noValidEmails' });
    else if (invalid.length > 0)
      problems.push({ field: 'target', key: 'invalidEmail', values: { email: invalid[0]! } });
    else if (duplicate)
      problems.push({ field: 'target', key: 'duplicateEmail', values: { email: duplicate } });
  }
  const name = draft.name.trim();
  if (!name) problems.push({ field: 'name', key: 'titleRequired' });
  else if (charCount(name) < NAME_MIN)
    problems.push({ field: 'name', key: 'minLength', values: { length: NAME_MIN } });
  else if (charCount(name) > NAME_MAX)
    problems.push({ field: 'name', key: 'maxLength', values: { limit: NAME_MAX } });
  const description = draft.description.trim();
  if (!description) problems.push({ field: 'description', key: 'descriptionRequired' });
  else if (charCount(description) < DESCRIPTION_MIN)
    problems.push({ field: 'description', key: 'minLength', values: { length: DESCRIPTION_MIN } });
  else if (charCount(description) > DESCRIPTION_MAX)
    problems.push({ field: 'description', key: 'maxLength', values: { limit: DESCRIPTION_MAX } });
  return problems;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The end of a chosen calendar day in local time, as the moment the challenge expires. */
export function expirationMoment(date: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const moment = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 0);
  return Number.isNaN(moment.getTime()) ? null : moment;
}

/** The latest date that can be chosen: two months from today. */
export function latestExpiration(now: Date): Date {
  const limit = new Date(now);
  limit.setMonth(limit.getMonth() + 2);
  return limit;
}

/** YYYY-MM-DD of a local date, for a date input's min and max. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Step 2 (spec section 5): an amount of at least 0.1, the credit accepted, a duration of 1 to 9
 * weeks or a date in the future (at least a week away, within two months, as the server
 * checks), and at least one tag.
 */
export function step2Problems(
  draft: ChallengeDraft,
  now = new Date(),
  rules: { rewardMinCents: number } | null = null,
): DraftProblem[] {
  const problems: DraftProblem[] = [];
  if (rules) {
    // The server's configured minimum (issue 22): the same refusal before sending.
    if (!(Math.round(draft.amount * 100) >= rules.rewardMinCents)) {
      problems.push({
        field: 'amount',
        key: 'amountTooLow',
        values: { minCents: rules.rewardMinCents },
      });
    }
  } else if (!(draft.amount >= AMOUNT_MIN)) {
    problems.push({ field: 'amount', key: 'amountTooLow', values: { minCents: 10 } });
  }
  if (draft.expirationDate) {
    const moment = expirationMoment(draft.expirationDate);
    if (!moment || moment.getTime() <= now.getTime())
      problems.push({ field: 'expiration', key: 'dateInPast' });
    else if (moment.getTime() - now.getTime() < 7 * DAY_MS)
      problems.push({ field: 'expiration', key: 'dateTooSoon' });
    else if (moment.getTime() > latestExpiration(now).getTime())
      problems.push({ field: 'expiration', key: 'dateTooLate' });
  } else if (
    !Number.isInteger(draft.expirationTimeWeeks) ||
    draft.expirationTimeWeeks < WEEKS_MIN ||
    draft.expirationTimeWeeks > WEEKS_MAX
  ) {
    problems.push({
      field: 'expiration',
      key: 'weeksRange',
      values: { min: WEEKS_MIN, max: WEEKS_MAX },
    });
  }
  if (draft.tags.length === 0) problems.push({ field: 'tags', key: 'tagsRequired' });
  if (!draft.acceptCredit) problems.push({ field: 'acceptCredit', key: 'acceptCredit' });
  return problems;
}

/** A reason to decline or reject: required, at most 800 characters (spec section 5). */
export function reasonProblem(reason: string): DraftProblem | null {
  if (!reason.trim()) return { field: 'description', key: 'reasonRequired' };
  if (charCount(reason.trim()) > REASON_MAX)
    return { field: 'description', key: 'maxLength', values: { limit: REASON_MAX } };
  return null;
}

/** The createChallenge input of a complete draft. */
export function toCreateInput(draft: ChallengeDraft): CreateChallengeInput {
  const moment = draft.expirationDate ? expirationMoment(draft.expirationDate) : null;
  return {
    challengeName: draft.name.trim(),
    challengeDescription: draft.description.trim(),
    challengeReward: amountInCents(draft.amount),
    tags: draft.tags,
    visibility: draft.visibility,
    challengeType: draft.challengeType,
    ...(moment
      ? { expirationDate: moment.toISOString() }
      : { expirationTimeWeeks: draft.expirationTimeWeeks }),
    acceptCredit: draft.acceptCredit,
    ...(draft.target === 'username'
      ? { challengedUsername: draft.challengedUsername.trim().replace(/^@/, '') }
      : { challengedUserEmailsString: splitEmails(draft.challengedUserEmailsString).join(',') }),
  };
}

/** A new draft with the fields of an existing challenge (the detail page's "duplicate"). */
export function duplicateDraft(
  challenge: {
    challengeName: string;
    challengeDescription: string;
    challengeReward: number;
    visibility: string;
    expirationTimeWeeks: number;
    tags: { name: string }[];
    challengeType?: string;
  },
  now = Date.now(),
): ChallengeDraft {
  return {
    ...defaultDraft(now),
    name: challenge.challengeName,
    description: challenge.challengeDescription,
    amount: challenge.challengeReward / 100,
    visibility: challenge.visibility === 'private' ? 'private' : 'public',
    expirationTimeWeeks: Math.min(WEEKS_MAX, Math.max(WEEKS_MIN, challenge.expirationTimeWeeks)),
    tags: challenge.tags.map((tag) => tag.name).slice(0, TAGS_MAX),
    challengeType: challenge.challengeType === 'duel' ? 'duel' : 'solo',
  };
}
