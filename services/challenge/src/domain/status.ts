import { randomInt, randomUUID } from 'node:crypto';
import { enqueueEvents, newEvent, type DomainEvent } from '@challenge/events';
import { AppError, type AuthUser, type EscrowClient, type Redis } from '@challenge/kit';
import type { Logger } from 'pino';
import {
  changeStatus,
  findChallengeById,
  findChallengeBySlug,
  updateChallengeFields,
  type ChallengeRecord,
  type TransitionFields,
} from '../data/challenges.ts';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import { insertSides } from '../data/sides.ts';
import { findKnownUser } from '../data/users.ts';
import { expirationOf, walletRefusal } from './create.ts';
import { sideActorsOf, sideTransitionIn } from './duel.ts';
import { canView, isStaff } from './challenges.ts';
import { challengeEventData } from './events.ts';
import { parseSlug } from './slugs.ts';
import {
  actorsOf,
  decideTransition,
  type Action,
  type Actor,
  type SideAction,
} from './transitions.ts';
import { isAdult } from './users.ts';

import { parseReason } from './reason.ts';

export { REASON_MAX, parseReason } from './reason.ts';

const PHRASE_ADJECTIVES = [
  'blue', 'brave', 'calm', 'clever', 'dizzy', 'eager', 'fuzzy', 'giant', 'happy', 'lucky',
  'mellow', 'noisy', 'proud', 'quick', 'rusty', 'shiny', 'silent', 'sunny', 'tiny', 'wild',
] as const; // prettier-ignore
const PHRASE_NOUNS = [
  'otter', 'falcon', 'teapot', 'comet', 'pickle', 'walrus', 'banjo', 'cactus', 'lantern', 'moose',
  'pebble', 'rocket', 'squid', 'tulip', 'violin', 'waffle', 'yak', 'zebra', 'kettle', 'parrot',
] as const; // prettier-ignore

/** A short random phrase to say or show in the video: "brave walrus 37". */
export function newProofPhrase(): string {
  const adjective = PHRASE_ADJECTIVES[randomInt(PHRASE_ADJECTIVES.length)];
  const noun = PHRASE_NOUNS[randomInt(PHRASE_NOUNS.length)];
  return `${adjective} ${noun} ${randomInt(10, 100)}`;
}

/** What a transition says in its event; `extra` carries what only the caller knows. */
function eventFor(
  action: Action,
  challenge: ChallengeRecord,
  actorId: string | null,
  extra: { videoId?: string },
): DomainEvent | null {
  const base = { aggregateId: challenge.id, actorId };
  const data = challengeEventData(challenge);
  switch (action) {
    case 'open':
      return null; // createChallenge writes ChallengeCreated with its own fields
    case 'accept':
      return newEvent('ChallengeAccepted', { ...base, data });
    case 'decline':
      return newEvent('ChallengeRefused', {
        ...base,
        data: { ...data, reason: challenge.reason! },
      });
    case 'cancel':
    case 'remove':
      return newEvent('ChallengeCancelled', { ...base, data });
    case 'videoProcessed':
      return newEvent('ChallengeVideoUploaded', {
        ...base,
        data: { ...data, videoId: extra.videoId! },
      });
    case 'reject':
      return newEvent('ChallengeSentToReferee', {
        ...base,
        data: { ...data, reason: challenge.reason! },
      });
    case 'approve':
    case 'judgingWindowElapsed':
    case 'refereeApprove':
      return newEvent('ChallengeCompleted', {
        ...base,
        data: { ...data, judgedByReferee: challenge.judgedByReferee },
      });
    case 'refereeFail':
      return newEvent('ChallengeFailed', {
        ...base,
        data: { ...data, comment: challenge.challengeFailedComment },
      });
    case 'expire':
      return newEvent('ChallengeExpired', { ...base, data });
  }
}

/** The fields an action sets besides the status. */
function fieldsFor(
  action: Action,
  input: { reason?: string | null; comment?: string | null },
  now: Date,
): TransitionFields {
  switch (action) {
    case 'accept':
      return { proofPhrase: newProofPhrase(), acceptedAt: now };
    case 'decline':
    case 'reject':
      return { reason: parseReason(input.reason) };
    case 'videoProcessed':
      // The registered proof is in: nothing is pending any more (docs/adr/0071).
      return { reviewStartedAt: now, pendingVideoId: null, pendingVideoAt: null };
    case 'refereeApprove':
      return { judgedByReferee: true };
    case 'refereeFail':
      return {
        judgedByReferee: true,
        challengeFailedComment: input.comment?.trim() ? parseReason(input.comment) : null,
      };
    default:
      return {};
  }
}

export interface TransitionRequest {
  action: Action;
  actors: readonly Actor[];
  actorId: string | null;
  reason?: string | null;
  comment?: string | null;
  videoId?: string;
  now?: Date;
}

/**
 * Makes one transition in one transaction: decide by the table, change the status only if it is
 * still the one decided on (so of two concurrent requests one wins, the other hears why it
 * lost), and write the event through the outbox.
 */
export async function transitionIn(
  tx: Transaction,
  challenge: ChallengeRecord,
  request: TransitionRequest,
): Promise<ChallengeRecord> {
  const now = request.now ?? new Date();
  let current = challenge;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const decision = decideTransition({
      action: request.action,
      status: current.status,
      actors: request.actors,
      expired: current.expirationDate <= now,
    });
    if (!decision.allowed) throw new AppError(decision.identifier);
    const fields = fieldsFor(request.action, request, now);
    const changed = await changeStatus(tx, current.id, [current.status], decision.to, fields);
    if (changed) {
      // A duel's two performances start with its acceptance (docs/adr/0032).
      if (request.action === 'accept' && changed.challengeType === 'duel') {
        await insertSides(tx, changed.id, [changed.ownerId, changed.challengedUserId!]);
      }
      const event = eventFor(request.action, changed, request.actorId, request);
      if (event) await enqueueEvents(tx, [event]);
      return changed;
    }
    // Another request changed it first: decide again on what it is now.
    const reread = await findChallengeById(tx, current.id);
    if (!reread) throw new AppError('challenge_not_found');
    current = reread;
  }
  throw new AppError('status_failed_to_update');
}

export function transition(
  db: Database,
  challengeId: string,
  request: TransitionRequest,
): Promise<ChallengeRecord> {
  return transactionRunner(db)(async (tx) => {
    const challenge = await findChallengeById(tx, challengeId);
    if (!challenge) throw new AppError('challenge_not_found');
    return transitionIn(tx, challenge, request);
  });
}

/** A challenge the user may see, by slug; challenge_not_found otherwise (nothing leaks). */
async function visibleBySlug(db: Database, user: AuthUser, slug: string) {
  const challenge = await findChallengeBySlug(db, parseSlug(slug));
  if (!challenge || !canView(challenge, user.id, isStaff(user))) {
    throw new AppError('challenge_not_found');
  }
  return challenge;
}

/** The status a client asks for, as the action of the table that leads there. */
export function actionForStatus(status: string): Action {
  switch (status) {
    case 'accepted':
      return 'accept';
    case 'refused':
      return 'decline';
    case 'completed':
      return 'approve';
    case 'referee':
      return 'reject';
    case 'failed':
      return 'refereeFail';
    case 'cancelled':
      return 'cancel';
    case 'draft':
    case 'open':
    case 'review':
    case 'expired':
      throw new AppError('invalid_status_change');
    default:
      throw new AppError('invalid_status');
  }
}

/** Actions that need the acting user to be 18 or older (docs/adr/0026). */
const ADULT_ACTIONS: readonly Action[] = ['accept'];

export interface StatusDeps {
  db: Database;
  escrow: EscrowClient;
  logger: Pick<Logger, 'error' | 'warn'>;
}

/** Who decides referee cases in moderation (docs/adr/0041): told where to, not refused vaguely. */
const CASE_DECIDERS = ['referee', 'admin'];

/**
 * updateChallengeStatus: accept (gives the proof phrase), decline with reason, approve, reject
 * with reason. Who may do what is the table's answer. In a duel (docs/adr/0032) accepting also
 * holds the challenged user's stake, and approve and reject judge one side: a party judges the
 * other party's video. A referee's decision is not made here: it is made in moderation's case
 * (the conflict-of-interest rule, the audit log) and reaches the challenge as RefereeDecided
 * only (docs/adr/0070); a referee or admin who is no party and asks for completed or failed is
 * told so (referee_case_required).
 */
export async function updateChallengeStatus(
  deps: StatusDeps,
  user: AuthUser,
  input: { slug: string; status: string; reason?: string | null },
): Promise<ChallengeRecord> {
  const { db } = deps;
  const challenge = await visibleBySlug(db, user, input.slug);
  const actors = actorsOf(challenge, user);
  const action = actionForStatus(input.status);
  const decides = action === 'approve' || action === 'refereeFail';
  if (decides && actors.length === 0 && user.roles.some((role) => CASE_DECIDERS.includes(role))) {
    throw new AppError('referee_case_required');
  }
  if (ADULT_ACTIONS.includes(action) && actors.includes('challenged')) {
    const known = await findKnownUser(db, user.id);
    if (known?.banned) throw new AppError('banned_user');
    if (!known || !isAdult(known, new Date())) throw new AppError('unavailable_too_young');
  }
  if (challenge.challengeType === 'duel') {
    if (action === 'accept') return acceptDuel(deps, user, challenge, actors);
    if (JUDGING.includes(action)) return judgeDuelSide(db, user, challenge, action, input);
  }
  return transition(db, challenge.id, {
    action,
    actors,
    actorId: user.id,
    reason: input.reason,
    comment: input.reason,
  });
}

const JUDGING: readonly Action[] = ['approve', 'reject', 'refereeFail'];

/**
 * A duel's acceptance: the challenged user's stake is held first (refused: insufficient_funds
 * and nothing changes), then the challenge is accepted with its two sides. Checked by the table
 * before any money moves. Each acceptance is an attempt of its own (a fresh key, docs/adr/0072):
 * if its hold fails in any way (wallet may have committed a hold whose answer was lost), or the
 * acceptance does not happen after the hold (the challenge moved on, the update failed), the
 * attempt's stake is given back, unless a concurrent acceptance by the same user won: that one
 * uses the same hold (wallet answers a held stake to every attempt). A later attempt, a retry,
 * holds the stake again while the duel is open.
 */
async function acceptDuel(
  deps: StatusDeps,
  user: AuthUser,
  challenge: ChallengeRecord,
  actors: readonly Actor[],
): Promise<ChallengeRecord> {
  const decision = decideTransition({
    action: 'accept',
    status: challenge.status,
    actors,
    expired: challenge.expirationDate <= new Date(),
  });
  if (!decision.allowed) throw new AppError(decision.identifier);
  const attempt = randomUUID();
  try {
    await deps.escrow.hold({
      challengeId: challenge.id,
      ownerId: user.id,
      amountCents: Number(challenge.rewardCents),
      slug: challenge.slug,
      challengeName: challenge.name,
      party: 'challenged',
      attempt,
    });
  } catch (error) {
    await giveBackStake(deps, challenge.id, attempt);
    throw walletRefusal(error, deps.logger);
  }
  try {
    return await transition(deps.db, challenge.id, {
      action: 'accept',
      actors,
      actorId: user.id,
    });
  } catch (error) {
    const now = await findChallengeById(deps.db, challenge.id).catch(() => null);
    const acceptedByThisUser =
      now?.challengedUserId === user.id && now.status !== 'open' && now.acceptedAt !== null;
    if (!acceptedByThisUser) await giveBackStake(deps, challenge.id, attempt);
    throw error;
  }
}

/**
 * Gives back what this acceptance attempt holds; not_found (it holds nothing, or the stake is
 * another attempt's) is done too. Wallet refuses this attempt's hold from now on. invalid_action
 * means wallet has seen the duel go on (accepted, or ended): its events settle the stake.
 */
async function giveBackStake(deps: StatusDeps, challengeId: string, attempt: string) {
  await deps.escrow.release(challengeId, 'challenged', attempt).catch((error: unknown) => {
    if (error instanceof AppError && error.identifier === 'not_found') return;
    const settledByEvents = error instanceof AppError && error.identifier === 'invalid_action';
    deps.logger[settledByEvents ? 'warn' : 'error'](
      { err: error, challengeId },
      "could not give back a duel's stake after a failed acceptance",
    );
  });
}

/**
 * Approve or reject in a duel: one side, judged by the other party, never by its performer (a
 * party's `failed` is a referee's action: refused by the side table).
 */
async function judgeDuelSide(
  db: Database,
  user: AuthUser,
  challenge: ChallengeRecord,
  action: Action,
  input: { reason?: string | null },
): Promise<ChallengeRecord> {
  const isParty = user.id === challenge.ownerId || user.id === challenge.challengedUserId;
  if (!isParty) {
    throw new AppError(action === 'refereeFail' ? 'invalid_action' : 'invalid_challenge_owner');
  }
  const performerId = (
    user.id === challenge.ownerId ? challenge.challengedUserId : challenge.ownerId
  )!;
  return transactionRunner(db)(async (tx) => {
    return sideTransitionIn(tx, challenge.id, {
      performerId,
      action: action as SideAction,
      actors: sideActorsOf(challenge, performerId, user),
      actorId: user.id,
      reason: input.reason,
      comment: input.reason,
    });
  });
}

export async function cancelChallenge(
  db: Database,
  user: AuthUser,
  slug: string,
): Promise<ChallengeRecord> {
  const challenge = await visibleBySlug(db, user, slug);
  return transition(db, challenge.id, {
    action: 'cancel',
    actors: actorsOf(challenge, user),
    actorId: user.id,
  });
}

/**
 * What was agreed, the description and the expiration, changes only while the challenge is open:
 * the challenged user accepts that text, and the referee judges the video against it
 * (docs/adr/0077). The status condition is in the same conditional update as the change and the
 * acceptance is a conditional update on `open` too, so one of an edit and an acceptance racing
 * each other waits for the other's row lock and re-checks: the text accepted is the text kept.
 * The web offers "Edit" in `open` only.
 */
const AGREED_EDITABLE = ['open'] as const;
/** The visibility: any time but in a draft (an owner may hide a challenge, even one that is over). */
const VISIBILITY_EDITABLE = [
  'open',
  'accepted',
  'review',
  'referee',
  'completed',
  'refused',
  'failed',
  'expired',
  'cancelled',
] as const;

/**
 * At most `perHour` visibility changes of one challenge per clock hour (docs/adr/0073): each one
 * to private makes media move every object of the challenge. A fixed window in Redis.
 */
export interface VisibilityLimit {
  redis: Redis;
  keyPrefix: string;
  perHour: number;
}

/** Takes one change from the challenge's allowance; answers how to give it back. */
async function takeVisibilityChange(
  limit: VisibilityLimit,
  challengeId: string,
): Promise<() => Promise<void>> {
  const window = Math.floor(Date.now() / 3_600_000);
  const key = `${limit.keyPrefix}challenge:visibility:${challengeId}:${window}`;
  const used = await limit.redis.incr(key);
  if (used === 1) await limit.redis.expire(key, 3_700);
  const giveBack = async () => void (await limit.redis.decr(key));
  if (used > limit.perHour) {
    await giveBack();
    throw new AppError(
      'too_many_requests',
      'The visibility of this challenge changed too often; try again later.',
    );
  }
  return giveBack;
}

export async function updateChallenge(
  db: Database,
  user: AuthUser,
  input: {
    slug: string;
    challengeDescription?: string | null;
    visibility?: string | null;
    expirationTimeWeeks?: number | null;
    expirationDate?: string | null;
  },
  limit?: VisibilityLimit,
  now = new Date(),
): Promise<ChallengeRecord> {
  const challenge = await visibleBySlug(db, user, input.slug);
  if (challenge.ownerId !== user.id) throw new AppError('invalid_challenge_owner');
  const fields: Parameters<typeof updateChallengeFields>[3] = {};
  if (input.challengeDescription != null) {
    const description = input.challengeDescription.trim();
    if (!description) throw new AppError('invalid_input', 'Please add a description');
    const length = [...description].length;
    if (length < 3 || length > 300) {
      throw new AppError('invalid_input', 'The description has 3 to 300 characters');
    }
    fields.description = description;
  }
  if (input.visibility != null) {
    if (input.visibility !== 'public' && input.visibility !== 'private') {
      throw new AppError('invalid_visibility_input');
    }
    fields.visibility = input.visibility;
  }
  const movesExpiration = input.expirationDate != null || input.expirationTimeWeeks != null;
  if (movesExpiration) Object.assign(fields, expirationOf(input, now));
  if (Object.keys(fields).length === 0) throw new AppError('invalid_input', 'Nothing to change');
  // Only a real change counts, and one that does not happen is given back.
  const giveBack =
    limit && fields.visibility !== undefined && fields.visibility !== challenge.visibility
      ? await takeVisibilityChange(limit, challenge.id)
      : null;
  let visibilityChanged = false;
  const updated = await transactionRunner(db)(async (tx) => {
    const result = await updateChallengeFields(
      tx,
      challenge.id,
      movesExpiration || fields.description !== undefined ? AGREED_EDITABLE : VISIBILITY_EDITABLE,
      fields,
    );
    if (result && movesExpiration) {
      // Wallet keeps the date, to report a stake held past it (docs/adr/0072).
      await enqueueEvents(tx, [
        newEvent('ChallengeExpirationChanged', {
          aggregateId: challenge.id,
          actorId: user.id,
          data: challengeEventData(result.challenge),
        }),
      ]);
    }
    if (result?.visibilityVersion != null) {
      visibilityChanged = true;
      // Media (and whoever else keeps a visibility) hears of it, in the same transaction.
      await enqueueEvents(tx, [
        newEvent('ChallengeVisibilityChanged', {
          aggregateId: challenge.id,
          actorId: user.id,
          data: {
            ...challengeEventData(result.challenge),
            visibility: result.challenge.visibility,
            visibilityVersion: result.visibilityVersion,
          },
        }),
      ]);
    }
    return result?.challenge ?? null;
  }).finally(async () => {
    if (giveBack && !visibilityChanged) await giveBack();
  });
  if (!updated) {
    // Refused by the status condition: say why in the terms of what was asked.
    const now = await findChallengeById(db, challenge.id);
    const agreed = fields.description !== undefined && now?.status !== 'draft';
    throw new AppError(agreed ? 'description_not_editable' : 'invalid_status_change');
  }
  return updated;
}
