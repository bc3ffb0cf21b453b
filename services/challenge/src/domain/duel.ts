import { enqueueEvents, newEvent, type DomainEvent } from '@challenge/events';
import { AppError } from '@challenge/kit';
import { changeStatus, type ChallengeRecord } from '../data/challenges.ts';
import type { Transaction } from '../data/db.ts';
import {
  changeSide,
  findSides,
  lockChallenge,
  type SideFields,
  type SideRecord,
} from '../data/sides.ts';
import { challengeEventData } from './events.ts';
import { parseReason } from './reason.ts';
import {
  decideSideTransition,
  duelStatus,
  SIDE_TRANSITIONS,
  type SideAction,
  type SideActor,
} from './transitions.ts';

/**
 * Duels (docs/adr/0032, docs/challenge-states.md): both parties stake the reward and both
 * perform. After acceptance each party has a side (awaiting_video, review, referee, completed,
 * failed) that the other party judges; the challenge's status is derived from the two sides, and
 * the duel ends (ChallengeCompleted or ChallengeFailed with duelOutcome, which wallet settles)
 * when both sides have ended.
 */

/** Statuses of a duel in which its sides move. */
const SIDES_MOVE_IN = ['accepted', 'review', 'referee'] as const;

export interface SideRequest {
  performerId: string;
  action: SideAction;
  actors: readonly SideActor[];
  actorId: string | null;
  reason?: string | null;
  comment?: string | null;
  videoId?: string;
  now?: Date;
}

/**
 * The roles a user holds for one side: the other party judges it; nobody else has one (a
 * referee decides in moderation's case, applied by the system: docs/adr/0070).
 */
export function sideActorsOf(
  challenge: Pick<ChallengeRecord, 'ownerId' | 'challengedUserId'>,
  performerId: string,
  user: { id: string },
): SideActor[] {
  const parties = [challenge.ownerId, challenge.challengedUserId];
  return parties.includes(user.id) && user.id !== performerId ? ['judge'] : [];
}

function fieldsFor(action: SideAction, request: SideRequest, now: Date): SideFields {
  switch (action) {
    case 'videoProcessed':
      return {
        reviewStartedAt: now,
        videoId: request.videoId ?? null,
        pendingVideoId: null,
        pendingVideoAt: null,
      };
    case 'reject':
      return { reason: parseReason(request.reason) };
    case 'refereeApprove':
      return { judgedByReferee: true };
    case 'refereeFail':
      return {
        judgedByReferee: true,
        failedComment: request.comment?.trim() ? parseReason(request.comment) : null,
      };
    default:
      return {};
  }
}

/**
 * Moves one side of a duel in one transaction: lock the duel, decide by the side table, change
 * the side, derive the duel's status from both sides, and write the event through the outbox.
 * The lock makes two judgements of the two sides (or a judgement and the scheduler) one after
 * the other, so the derived status is never computed from a stale side.
 */
export async function sideTransitionIn(
  tx: Transaction,
  challengeId: string,
  request: SideRequest,
): Promise<ChallengeRecord> {
  const challenge = await lockChallenge(tx, challengeId);
  if (!challenge) throw new AppError('challenge_not_found');
  if (challenge.challengeType !== 'duel') throw new AppError('invalid_action');
  const transition = SIDE_TRANSITIONS[request.action];
  if (!request.actors.includes(transition.by)) {
    throw new AppError(transition.by === 'judge' ? 'invalid_challenge_owner' : 'invalid_action');
  }
  const sides = await findSides(tx, challengeId);
  const side = sides.find((candidate) => candidate.performerId === request.performerId);
  if (!side) throw new AppError('invalid_status_change');
  // A repeated judgement is status_unchanged even once the duel has ended (as in a solo challenge).
  const decision = decideSideTransition({
    action: request.action,
    status: side.status,
    actors: request.actors,
  });
  if (!decision.allowed) throw new AppError(decision.identifier);
  if (!(SIDES_MOVE_IN as readonly string[]).includes(challenge.status)) {
    throw new AppError('invalid_status_change');
  }
  const now = request.now ?? new Date();
  const changedSide = await changeSide(
    tx,
    side,
    decision.to,
    fieldsFor(request.action, request, now),
  );
  if (!changedSide) throw new AppError('status_failed_to_update'); // the lock makes this unreachable
  const after = sides.map((candidate) => (candidate === side ? changedSide : candidate));
  const status = duelStatus(after);
  let changed = challenge;
  if (status !== challenge.status) {
    const judgedByReferee = after.some((candidate) => candidate.judgedByReferee);
    const ended = status === 'completed' || status === 'failed';
    const updated = await changeStatus(
      tx,
      challenge.id,
      [challenge.status],
      status,
      ended ? { judgedByReferee } : {},
    );
    if (!updated) throw new AppError('status_failed_to_update');
    changed = updated;
  }
  const event = eventFor(changed, changedSide, after, request.actorId);
  if (event) await enqueueEvents(tx, [event]);
  return changed;
}

function eventFor(
  challenge: ChallengeRecord,
  side: SideRecord,
  sides: readonly SideRecord[],
  actorId: string | null,
): DomainEvent | null {
  const base = { aggregateId: challenge.id, actorId };
  const data = challengeEventData(challenge);
  const performerId = side.performerId;
  switch (side.status) {
    case 'review':
      return newEvent('ChallengeVideoUploaded', {
        ...base,
        data: { ...data, videoId: side.videoId!, performerId },
      });
    case 'referee':
      // Moderation opens this side's case with its performer and video (docs/adr/0070).
      return newEvent('ChallengeSentToReferee', {
        ...base,
        data: { ...data, reason: side.reason!, performerId, videoId: side.videoId },
      });
    case 'completed':
    case 'failed': {
      if (challenge.status === 'completed' || challenge.status === 'failed') {
        const outcomeOf = (id: string | null) =>
          sides.find((candidate) => candidate.performerId === id)?.status === 'completed'
            ? ('completed' as const)
            : ('failed' as const);
        const duelOutcome = {
          owner: outcomeOf(challenge.ownerId),
          challenged: outcomeOf(challenge.challengedUserId),
        };
        return challenge.status === 'completed'
          ? newEvent('ChallengeCompleted', {
              ...base,
              data: { ...data, judgedByReferee: side.judgedByReferee, duelOutcome },
            })
          : newEvent('ChallengeFailed', {
              ...base,
              data: { ...data, comment: side.failedComment, duelOutcome },
            });
      }
      return newEvent('DuelSideJudged', {
        ...base,
        data: {
          ...data,
          performerId,
          outcome: side.status,
          judgedByReferee: side.judgedByReferee,
        },
      });
    }
    case 'awaiting_video':
      return null;
  }
}

/**
 * The scheduler's step for a duel after acceptance: past the expiration date a duel in which no
 * side has a video expires (each stake back); otherwise each side still without a video fails.
 * A side whose proof was registered before the date (pendingVideoId) has one on its way: it waits
 * for the processing (docs/adr/0071). Each side in review past its judge's window counts as
 * approved. Returns how many changes.
 */
export async function duelTimeUp(
  tx: Transaction,
  challenge: ChallengeRecord,
  options: {
    now: Date;
    judgingWindowMs: number;
    expire: () => Promise<unknown>;
  },
): Promise<number> {
  const { now } = options;
  const sides = await findSides(tx, challenge.id);
  const pastExpiry = challenge.expirationDate <= now;
  const withoutVideo = (side: SideRecord) =>
    side.status === 'awaiting_video' && side.pendingVideoId === null;
  if (pastExpiry && sides.every(withoutVideo)) {
    await options.expire();
    return 1;
  }
  let changed = 0;
  const reviewStartedBefore = now.getTime() - options.judgingWindowMs;
  for (const side of sides) {
    const action: SideAction | null =
      pastExpiry && withoutVideo(side)
        ? 'expire'
        : side.status === 'review' &&
            side.reviewStartedAt &&
            side.reviewStartedAt.getTime() <= reviewStartedBefore
          ? 'judgingWindowElapsed'
          : null;
    if (!action) continue;
    await sideTransitionIn(tx, challenge.id, {
      performerId: side.performerId,
      action,
      actors: ['system'],
      actorId: null,
      now,
    });
    changed += 1;
  }
  return changed;
}

/**
 * The side a referee's decision (RefereeDecided) is about: the one its case names, which must be
 * a party's. A decision that names none comes from a case opened before moderation recorded
 * sides; it was about the one side in referee then, and that side leaves referee only by a
 * referee's decision. So it is applied to the one side in referee only while no side has been
 * decided by a referee yet: otherwise it may be the stale case of a side already decided, and
 * is never applied to the other side. The caller holds the duel's lock.
 */
export async function refereedSide(
  tx: Transaction,
  challenge: Pick<ChallengeRecord, 'id' | 'ownerId' | 'challengedUserId'>,
  performerId: string | null | undefined,
): Promise<string> {
  if (performerId) {
    if (performerId !== challenge.ownerId && performerId !== challenge.challengedUserId) {
      throw new AppError('invalid_input', 'Not a performer of this duel');
    }
    return performerId;
  }
  const sides = await findSides(tx, challenge.id);
  const disputed = sides.filter((side) => side.status === 'referee');
  if (disputed.length === 0) throw new AppError('invalid_status_change');
  if (disputed.length > 1 || sides.some((side) => side.judgedByReferee)) {
    throw new AppError('invalid_input', 'The decision does not name its side');
  }
  return disputed[0]!.performerId;
}
