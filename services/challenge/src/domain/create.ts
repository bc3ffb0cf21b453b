import { randomBytes } from 'node:crypto';
import { enqueueEvents, newEvent } from '@challenge/events';
import { AppError, type AuthUser, type EscrowClient } from '@challenge/kit';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ChallengeRules } from '../config.ts';
import {
  changeStatus,
  deleteDrafts,
  insertChallenge,
  type ChallengeRecord,
} from '../data/challenges.ts';
import { transactionRunner, type Database } from '../data/db.ts';
import {
  findKnownUser,
  findKnownUserByUsername,
  findKnownUsersByEmail,
  type KnownUserRecord,
} from '../data/users.ts';
import { challengeEventData } from './events.ts';
import { SLUG_MAX_LENGTH } from './slugs.ts';
import { TRANSITIONS } from './transitions.ts';
import { isAdult } from './users.ts';

export interface CreateDeps {
  db: Database;
  escrow: EscrowClient;
  rules: ChallengeRules;
  logger: Logger;
}

/** The input after the resolver's shape check; the rules below give the catalogue's answers. */
export interface CreateChallengeInput {
  challengeName: string;
  challengeDescription: string;
  /** Integer euro cents. */
  challengeReward: number;
  tags: string[];
  visibility?: string | null;
  challengeType?: string | null;
  expirationTimeWeeks?: number | null;
  /** ISO 8601; wins over expirationTimeWeeks when both are given. */
  expirationDate?: string | null;
  acceptCredit: boolean;
  challengedUsername?: string | null;
  challengedUserEmailsString?: string | null;
}

export const NAME_MIN = 3;
export const NAME_MAX = 100;
export const DESCRIPTION_MIN = 3;
export const DESCRIPTION_MAX = 300;
export const TAG_MAX_LENGTH = 30;
export const TAGS_MAX = 10;
export const WEEKS_MIN = 1;
export const WEEKS_MAX = 9;
export const DEFAULT_WEEKS = 2;
/** One request invites at most this many addresses (one challenge, and one hold, each). */
export const MAX_INVITED_EMAILS = 10;

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const codePoints = (value: string) => [...value].length;

function invalid(message: string): never {
  throw new AppError('invalid_input', message);
}

/**
 * A title is one line: every run of white space (line breaks and tabs among it) and every
 * control or invisible format character but the emoji joiner becomes one space, so that a title never breaks a card,
 * an e-mail's subject or a notification into lines, nor hides text.
 */
export function oneLine(value: string): string {
  // The zero-width joiner stays: it joins emoji sequences (a family is one picture).
  return value.replace(/(?:[\s\p{Cc}]|(?!\u200d)\p{Cf})+/gu, ' ').trim();
}

/** Trimmed, without a leading '#', lower-cased, without repeats; at least one. */
export function normaliseTags(tags: readonly string[]): string[] {
  const names = [
    ...new Set(tags.map((tag) => tag.trim().replace(/^#+/, '').trim().toLowerCase())),
  ].filter((tag) => tag.length > 0);
  if (names.length === 0) invalid('Please add at least one tag');
  if (names.length > TAGS_MAX) invalid(`At most ${TAGS_MAX} tags`);
  for (const name of names) {
    if (codePoints(name) > TAG_MAX_LENGTH)
      invalid(`A tag has at most ${TAG_MAX_LENGTH} characters`);
  }
  return names;
}

/**
 * The expiration of a new challenge. An explicit date must lie in the future and within 2 months
 * (invalid_expiration_date) and at least 1 week away (error_creating_challenge_object); a
 * duration is 1 (error_creating_challenge_object below) to 9 weeks (invalid_expiration_time).
 */
export function expirationOf(
  input: { expirationDate?: string | null; expirationTimeWeeks?: number | null },
  now: Date,
): { expirationDate: Date; expirationTimeWeeks: number } {
  if (input.expirationDate) {
    const date = new Date(input.expirationDate);
    if (Number.isNaN(date.getTime())) throw new AppError('invalid_expiration_date');
    const limit = new Date(now);
    limit.setUTCMonth(limit.getUTCMonth() + 2);
    if (date <= now || date > limit) throw new AppError('invalid_expiration_date');
    if (date.getTime() - now.getTime() < WEEK_MS) {
      throw new AppError('error_creating_challenge_object');
    }
    const weeks = Math.min(WEEKS_MAX, Math.ceil((date.getTime() - now.getTime()) / WEEK_MS));
    return { expirationDate: date, expirationTimeWeeks: weeks };
  }
  const weeks = input.expirationTimeWeeks ?? DEFAULT_WEEKS;
  if (!Number.isInteger(weeks)) invalid('The duration is a whole number of weeks');
  if (weeks > WEEKS_MAX) throw new AppError('invalid_expiration_time');
  if (weeks < WEEKS_MIN) throw new AppError('error_creating_challenge_object');
  return { expirationDate: new Date(now.getTime() + weeks * WEEK_MS), expirationTimeWeeks: weeks };
}

const emailSchema = z.email();

/**
 * The invited addresses: comma-separated (semicolons and whitespace also separate), each valid
 * (invalid_challenged_email), each only once regardless of case (duplicate_challenged_email),
 * never the owner's own (same_email). Returned lower-cased.
 */
export function parseInvitedEmails(value: string, ownEmail: string): string[] {
  const entries = value
    .split(/[,;\s]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0 || entries.some((entry) => !emailSchema.safeParse(entry).success)) {
    throw new AppError('invalid_challenged_email');
  }
  const emails = entries.map((entry) => entry.toLowerCase());
  if (new Set(emails).size !== emails.length) throw new AppError('duplicate_challenged_email');
  if (emails.includes(ownEmail.toLowerCase())) throw new AppError('same_email');
  if (emails.length > MAX_INVITED_EMAILS) {
    invalid(`At most ${MAX_INVITED_EMAILS} e-mail addresses at once`);
  }
  return emails;
}

/** Whether `target` may be challenged by `owner` for `rewardCents`. */
export function checkTarget(
  owner: KnownUserRecord,
  target: KnownUserRecord,
  rewardCents: number,
): void {
  if (target.id === owner.id) throw new AppError('owner_equals_challenged_user');
  if (target.banned || !target.challengeable) throw new AppError('user_not_challengeable');
  // Spec section 5: "only for amounts above that user's minimum amount".
  if (target.minimumChallengeCents !== null && rewardCents <= target.minimumChallengeCents) {
    throw new AppError('minimal_challenge_value_invalid');
  }
}

/** `run-5-km-in-20-min-k3j9x2a`: the name's words and a random tail (one URL per challenge). */
export function newSlug(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  const tail = randomBytes(6).readUIntBE(0, 6).toString(36).padStart(8, '0').slice(-8);
  const slug = words ? `${words}-${tail}` : `challenge-${tail}`;
  return slug.slice(0, SLUG_MAX_LENGTH);
}

interface Target {
  challengedUserId: string | null;
  challengedEmail: string | null;
}

async function resolveTargets(
  db: Database,
  owner: KnownUserRecord,
  input: CreateChallengeInput,
): Promise<Target[]> {
  const username = input.challengedUsername?.trim();
  const emails = input.challengedUserEmailsString?.trim();
  if (username && emails) invalid('Challenge a friend by username or by e-mail, not both');
  if (username) {
    const target = await findKnownUserByUsername(db, username);
    if (!target) throw new AppError('user_not_found');
    checkTarget(owner, target, input.challengeReward);
    return [{ challengedUserId: target.id, challengedEmail: null }];
  }
  if (!emails) invalid('Choose a friend or enter e-mail addresses');
  const addresses = parseInvitedEmails(emails, owner.email);
  const known = await findKnownUsersByEmail(db, addresses);
  return addresses.map((email) => {
    const target = known.get(email);
    if (target) checkTarget(owner, target, input.challengeReward);
    return { challengedUserId: target?.id ?? null, challengedEmail: email };
  });
}

/**
 * createChallenge (DESIGN.md section 3, the money saga): every rule first; then one draft row per
 * target, the escrow hold of each, and only when every hold is taken, open + ChallengeCreated in
 * one transaction. A refused hold (insufficient_funds) or any failure releases every draft's
 * hold and deletes the drafts whose release wallet confirmed: nothing is left half-made.
 */
export async function createChallenges(
  deps: CreateDeps,
  actor: AuthUser,
  input: CreateChallengeInput,
  now = new Date(),
): Promise<ChallengeRecord[]> {
  const { db, escrow, rules, logger } = deps;
  const owner = await findKnownUser(db, actor.id);
  if (!owner) throw new AppError('authorized_user_not_found');
  if (owner.banned) throw new AppError('banned_user');
  if (!isAdult(owner, now)) throw new AppError('unavailable_too_young');

  const name = oneLine(input.challengeName);
  const description = input.challengeDescription.trim();
  if (!name) invalid('Please add a title');
  if (!description) invalid('Please add a description');
  if (codePoints(name) < NAME_MIN || codePoints(name) > NAME_MAX) {
    invalid(`The title has ${NAME_MIN} to ${NAME_MAX} characters`);
  }
  if (codePoints(description) < DESCRIPTION_MIN || codePoints(description) > DESCRIPTION_MAX) {
    invalid(`The description has ${DESCRIPTION_MIN} to ${DESCRIPTION_MAX} characters`);
  }
  const tags = normaliseTags(input.tags);
  const visibility = input.visibility ?? 'public';
  if (visibility !== 'public' && visibility !== 'private') {
    throw new AppError('invalid_visibility_input');
  }
  const challengeType = input.challengeType ?? 'solo';
  if (challengeType !== 'solo' && challengeType !== 'duel') invalid('Unknown challenge type');
  if (!input.acceptCredit) invalid('Please accept to use credit');
  if (!Number.isSafeInteger(input.challengeReward)) invalid('The reward is in whole cents');
  if (input.challengeReward < rules.rewardMinCents) throw new AppError('challenge_reward_too_low');
  if (input.challengeReward > rules.rewardMaxCents) throw new AppError('challenge_reward_too_high');
  const expiration = expirationOf(input, now);
  const targets = await resolveTargets(db, owner, input);

  const drafts = await transactionRunner(db)((tx) =>
    Promise.all(
      targets.map((target) =>
        insertChallenge(tx, {
          ...target,
          ...expiration,
          slug: newSlug(name),
          ownerId: owner.id,
          name,
          description,
          rewardCents: BigInt(input.challengeReward),
          status: 'draft',
          visibility,
          challengeType,
          tags,
        }),
      ),
    ),
  );

  try {
    for (const draft of drafts) {
      await escrow
        .hold({
          challengeId: draft.id,
          ownerId: owner.id,
          amountCents: input.challengeReward,
          slug: draft.slug,
          challengeName: draft.name,
        })
        .catch((error: unknown) => {
          throw walletRefusal(error, logger);
        });
    }
    return await transactionRunner(db)(async (tx) => {
      const opened: ChallengeRecord[] = [];
      for (const draft of drafts) {
        const challenge = await changeStatus(tx, draft.id, TRANSITIONS.open.from, 'open');
        if (!challenge) throw new Error(`draft ${draft.id} changed during its creation`);
        opened.push(challenge);
      }
      await enqueueEvents(
        tx,
        opened.map((challenge) =>
          newEvent('ChallengeCreated', {
            aggregateId: challenge.id,
            actorId: owner.id,
            data: { ...challengeEventData(challenge), visibility: challenge.visibility },
          }),
        ),
      );
      return opened;
    });
  } catch (error) {
    await undoCreation(deps, drafts, logger);
    throw error;
  }
}

/** Wallet's own answers the owner can act on; anything else is a wallet issue. */
const WALLET_ANSWERS: readonly string[] = [
  'insufficient_funds',
  'wallet_not_found',
  'limit_exceeded_this_month',
];

export function walletRefusal(error: unknown, logger: Pick<Logger, 'error'>): AppError {
  if (error instanceof AppError && WALLET_ANSWERS.includes(error.identifier)) return error;
  logger.error({ err: error }, 'escrow hold failed');
  return new AppError('status_updated_failed_with_wallet_issue');
}

/**
 * Releases the hold of every draft, not only of those whose hold was answered: an answer lost
 * after wallet committed (a timeout, a reset connection) leaves a hold nobody here knows of. A
 * draft that holds nothing answers not_found, which counts as released (and wallet then refuses
 * its hold should it still arrive: ADR 0072). Only a draft whose release wallet confirmed is
 * deleted; the others are kept, never listed, for the stale-draft sweep to release and delete.
 */
async function undoCreation(
  deps: CreateDeps,
  drafts: ChallengeRecord[],
  logger: Logger,
): Promise<void> {
  const released = await Promise.all(
    drafts.map((draft) => releaseDraft(deps.escrow, draft.id, logger)),
  );
  await deleteDrafts(
    deps.db,
    drafts.filter((_draft, index) => released[index]).map((draft) => draft.id),
  ).catch((error: unknown) => logger.error({ err: error }, 'could not delete drafts'));
}

/** True when wallet confirmed that the draft holds nothing (any more). */
async function releaseDraft(
  escrow: EscrowClient,
  challengeId: string,
  logger: Pick<Logger, 'error'>,
): Promise<boolean> {
  try {
    await escrow.release(challengeId);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.identifier === 'not_found') return true;
    logger.error({ err: error, challengeId }, 'could not release the hold of a draft');
    return false;
  }
}
