import type { DomainEvent } from '@challenge/events';
import { AppError } from '@challenge/kit';
import type { Logger } from 'pino';
import { bringBackOnline, findChallengeById, setModeration } from '../data/challenges.ts';
import type { Transaction } from '../data/db.ts';
import { findSides, lockChallenge, setSideReviewStart } from '../data/sides.ts';
import { refereedSide, sideTransitionIn } from './duel.ts';
import { transitionIn } from './status.ts';
import { resumedAt, tellWalletOfTimers } from './timers.ts';
import { LIVE_STATUSES } from './transitions.ts';

/**
 * Transitions that other services cause through their events (docs/challenge-states.md):
 * media's VideoProcessed (accepted -> review) and moderation's RefereeDecided (referee ->
 * completed or failed). Run inside the consumer's handleOnce transaction, so the change, its
 * event and the record of the handled event commit together. An event that no longer fits
 * (the challenge moved on, or the uploader is not its challenged user) changes nothing. `now` is
 * the service's clock (the judging window starts then).
 */
export async function applyVideoProcessed(
  tx: Transaction,
  event: DomainEvent<'VideoProcessed'>,
  logger: Logger,
  now: Date,
): Promise<void> {
  const challenge = await findChallengeById(tx, event.data.challengeId);
  if (challenge?.challengeType === 'duel' && challenge.ownerId === event.data.uploadedBy) {
    // A duel's owner performs too: their video moves their own side (docs/adr/0032).
    return applyDuelVideo(tx, event, logger, now);
  }
  if (!challenge || challenge.challengedUserId !== event.data.uploadedBy) {
    logger.warn({ eventId: event.id }, 'VideoProcessed for no challenge of that uploader');
    return;
  }
  if (challenge.challengeType === 'duel') return applyDuelVideo(tx, event, logger, now);
  await refusalsLogged(logger, event.id, () =>
    transitionIn(tx, challenge, {
      action: 'videoProcessed',
      actors: ['system'],
      actorId: event.data.uploadedBy,
      videoId: event.data.videoId,
      now,
    }),
  );
}

/**
 * A referee decided a case in moderation: the only way a referee's decision reaches a challenge
 * (docs/adr/0070). It settles exactly the side its case names: in a duel that side only (under
 * the duel's lock), in a solo challenge its one side, the challenged user's. A decision that does
 * not fit (its side is no longer in referee: a redelivery, a repeat, a stale case; it names
 * someone who performs nothing here; it names no side where that is ambiguous) changes nothing.
 */
export async function applyRefereeDecided(
  tx: Transaction,
  event: DomainEvent<'RefereeDecided'>,
  logger: Logger,
): Promise<void> {
  const { challengeId, decision, performerId, refereeId, comment } = event.data;
  const action = decision === 'approved' ? 'refereeApprove' : 'refereeFail';
  const challenge = await lockChallenge(tx, challengeId);
  if (!challenge) {
    logger.warn({ eventId: event.id }, 'RefereeDecided for an unknown challenge');
    return;
  }
  if (challenge.challengeType === 'duel') {
    await refusalsLogged(logger, event.id, async () =>
      sideTransitionIn(tx, challenge.id, {
        performerId: await refereedSide(tx, challenge, performerId),
        action,
        actors: ['system'],
        actorId: refereeId,
        comment,
      }),
    );
    return;
  }
  if (performerId && performerId !== challenge.challengedUserId) {
    logger.warn({ eventId: event.id }, 'RefereeDecided names no performer of this challenge');
    return;
  }
  await refusalsLogged(logger, event.id, () =>
    transitionIn(tx, challenge, { action, actors: ['system'], actorId: refereeId, comment }),
  );
}

/**
 * Moderation took the challenge offline: hidden from everyone but staff (canView, the lists).
 * The money stays where the state puts it, and its timers stand still from `now` (the service's
 * clock) until it is back online (docs/adr/0071): its parties cannot act meanwhile.
 */
export async function applyChallengeTakenOffline(
  tx: Transaction,
  event: DomainEvent<'ChallengeTakenOffline'>,
  logger: Logger,
  now: Date,
): Promise<void> {
  const challenge = await setModeration(tx, event.data.challengeId, 'offline', now);
  if (!challenge) {
    logger.warn({ eventId: event.id }, 'ChallengeTakenOffline for an unknown challenge');
    return;
  }
  if (challenge.moderation !== 'offline') return; // removed meanwhile: it ended as removed
  await tellWalletOfTimers(tx, challenge.id, event.data.moderatorId);
}

/**
 * Moderation brought an offline challenge back online (docs/adr/0071): its parties see it again,
 * and every timer moves by the time it was offline, from `offlineSince` to `now` (the service's
 * clock, the same as the scheduler's): the expiration date, the owner's judging window, each duel
 * side's. So nobody gains or loses a minute because staff hid it. A removed challenge stays
 * removed. Holds the row's lock, as the scheduler does, so no pass decides on the old deadlines.
 */
export async function applyChallengeBroughtBackOnline(
  tx: Transaction,
  event: DomainEvent<'ChallengeBroughtBackOnline'>,
  logger: Logger,
  now: Date,
): Promise<void> {
  const challenge = await lockChallenge(tx, event.data.challengeId);
  if (challenge?.moderation !== 'offline' || !challenge.offlineSince) {
    logger.warn({ eventId: event.id }, 'ChallengeBroughtBackOnline for no offline challenge');
    return;
  }
  const since = challenge.offlineSince;
  const back = await bringBackOnline(tx, challenge.id, {
    expirationDate: resumedAt(challenge.expirationDate, since, now, 'deadline'),
    reviewStartedAt:
      challenge.status === 'review' && challenge.reviewStartedAt
        ? resumedAt(challenge.reviewStartedAt, since, now, 'start')
        : challenge.reviewStartedAt,
  });
  for (const side of await findSides(tx, challenge.id)) {
    if (side.status === 'review' && side.reviewStartedAt) {
      await setSideReviewStart(tx, side, resumedAt(side.reviewStartedAt, since, now, 'start'));
    }
  }
  // Wallet hears the new date, and that the timers run again unless a proof is on its way.
  if (back) await tellWalletOfTimers(tx, challenge.id, event.data.moderatorId);
}

/**
 * Moderation removed the challenge: hidden as when offline, and one that has not ended is
 * cancelled by the system (the transition table's `remove`), so ChallengeCancelled gives the
 * owner's held reward back through wallet.
 */
export async function applyChallengeRemoved(
  tx: Transaction,
  event: DomainEvent<'ChallengeRemoved'>,
  logger: Logger,
  now: Date,
): Promise<void> {
  const challenge = await setModeration(tx, event.data.challengeId, 'removed', now);
  if (!challenge) {
    logger.warn({ eventId: event.id }, 'ChallengeRemoved for an unknown challenge');
    return;
  }
  if (!LIVE_STATUSES.includes(challenge.status)) return; // ended: it stays as it ended
  await refusalsLogged(logger, event.id, () =>
    transitionIn(tx, challenge, {
      action: 'remove',
      actors: ['system'],
      actorId: event.data.moderatorId,
      now,
    }),
  );
}

/**
 * A duel's party's video: their side goes to review, judged by the other party. A side whose
 * proof was registered no longer pauses the timers: wallet hears it (the other side may expire).
 */
async function applyDuelVideo(
  tx: Transaction,
  event: DomainEvent<'VideoProcessed'>,
  logger: Logger,
  now: Date,
): Promise<void> {
  const { challengeId, uploadedBy, videoId } = event.data;
  // The duel's lock first (the transition takes it again): the registration also holds it.
  await lockChallenge(tx, challengeId);
  const registered = async () =>
    (await findSides(tx, challengeId)).some(
      (side) => side.performerId === uploadedBy && side.pendingVideoId !== null,
    );
  const wasRegistered = await registered();
  await refusalsLogged(logger, event.id, () =>
    sideTransitionIn(tx, challengeId, {
      performerId: uploadedBy,
      action: 'videoProcessed',
      actors: ['system'],
      actorId: uploadedBy,
      videoId,
      now,
    }),
  );
  if (wasRegistered && !(await registered())) {
    await tellWalletOfTimers(tx, challengeId, uploadedBy);
  }
}

async function refusalsLogged(logger: Logger, eventId: string, run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    logger.warn({ eventId, refusal: error.identifier }, 'event did not fit the challenge');
  }
}
