import { enqueueEvents, newEvent, type DomainEvent } from '@challenge/events';
import { AppError, type ProofUploadRequest, type ProofUploadView } from '@challenge/kit';
import { findChallengeById, setPendingVideo, type ChallengeRecord } from '../data/challenges.ts';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import { findSides, lockChallenge, setSidePendingVideo } from '../data/sides.ts';
import { challengeEventData } from './events.ts';

/**
 * A challenge's timers (docs/adr/0071): the expiration date and the judging windows.
 *
 * - A proof whose upload completed before the expiration date wins. Media registers every
 *   completed proof upload here before it queues the processing (`registerProofUpload`); the
 *   registration and the scheduler's expiry both hold the challenge row's lock (FOR UPDATE; the
 *   scheduler's FOR UPDATE SKIP LOCKED skips a row being registered and finds it pending at its
 *   next pass), and both compare the expiration date with this service's clock. So an upload is
 *   either registered before the expiry, and then the challenge (or the duel's side) waits for
 *   media's VideoProcessed or VideoProcessingFailed instead of expiring, or refused with
 *   challenge_expired, and media discards it. A failed processing clears the registration; past
 *   the date the scheduler's next pass then expires the challenge (or fails the side).
 * - While staff keep a challenge offline its parties cannot act, so the scheduler leaves it alone,
 *   and bringing it back online moves its deadlines by the time it was offline (`resumedAt`).
 * - Wallet hears whenever either starts or ends (`tellWalletOfTimers`): its reconciliation must
 *   not offer a stake as stray past its date while the challenge can still go on.
 */

/** Statuses of a duel in which a side may still be waiting for its proof. */
const DUEL_RUNNING = ['accepted', 'review', 'referee'] as const;

/**
 * Registers a completed proof upload (media's internal call), or refuses it: challenge_not_found
 * (unknown, or hidden by staff: its parties are locked out), invalid_action (not the performer,
 * or their proof is no longer awaited), challenge_expired (expired, or now past the expiration
 * date). The same video again answers its registration (media's retry).
 */
export async function registerProofUpload(
  db: Database,
  request: ProofUploadRequest,
  now: Date,
): Promise<ProofUploadView> {
  return transactionRunner(db)(async (tx) => {
    const challenge = await lockChallenge(tx, request.challengeId);
    if (!challenge || challenge.moderation) throw new AppError('challenge_not_found');
    const registered = (at: Date): ProofUploadView => ({
      ...request,
      registeredAt: at.toISOString(),
    });
    const performers =
      challenge.challengeType === 'duel'
        ? [challenge.ownerId, challenge.challengedUserId]
        : [challenge.challengedUserId];
    if (!performers.includes(request.performerId)) {
      throw new AppError('invalid_action', 'Only a performer of the challenge sends its proof.');
    }
    if (challenge.challengeType === 'duel') {
      const side = (await findSides(tx, challenge.id)).find(
        (candidate) => candidate.performerId === request.performerId,
      );
      if (side?.pendingVideoId === request.videoId && side.pendingVideoAt) {
        return registered(side.pendingVideoAt);
      }
      const awaited =
        (DUEL_RUNNING as readonly string[]).includes(challenge.status) &&
        side?.status === 'awaiting_video';
      refuseLate(challenge, now, awaited);
      // A newer video replaces a registered one: media keeps one live video per performer, so
      // the older one has failed (its VideoProcessingFailed then clears nothing).
      await setSidePendingVideo(tx, side!, { videoId: request.videoId, at: now });
      await tellWalletOfTimers(tx, challenge.id, request.performerId);
      return registered(now);
    }
    if (challenge.pendingVideoId === request.videoId && challenge.pendingVideoAt) {
      return registered(challenge.pendingVideoAt);
    }
    refuseLate(challenge, now, challenge.status === 'accepted');
    await setPendingVideo(tx, challenge.id, { videoId: request.videoId, at: now });
    await tellWalletOfTimers(tx, challenge.id, request.performerId);
    return registered(now);
  });
}

/**
 * Tells wallet the challenge's expiration date and whether its timers stand still: while staff
 * keep it offline, or while a registered proof is on its way (it wins over the date). Wallet's
 * reconciliation reports stakes held past their date (docs/adr/0072) but not a paused one, so
 * staff are never offered to settle a stake that the challenge may still pay out. Called in the
 * transaction that changed either, under the challenge row's lock; reads the state as changed.
 */
export async function tellWalletOfTimers(
  tx: Transaction,
  challengeId: string,
  actorId: string,
): Promise<void> {
  const challenge = await findChallengeById(tx, challengeId);
  if (!challenge) return;
  const proofOnItsWay =
    challenge.pendingVideoId !== null ||
    (challenge.challengeType === 'duel' &&
      (await findSides(tx, challenge.id)).some((side) => side.pendingVideoId !== null));
  await enqueueEvents(tx, [
    newEvent('ChallengeExpirationChanged', {
      aggregateId: challenge.id,
      actorId,
      data: {
        ...challengeEventData(challenge),
        expiresAt: challenge.expirationDate.toISOString(),
        timersPaused: challenge.moderation === 'offline' || proofOnItsWay,
      },
    }),
  ]);
}

/** Refusals in order: expired, no proof awaited (invalid_action), past the expiration date. */
function refuseLate(challenge: ChallengeRecord, now: Date, awaited: boolean): void {
  if (challenge.status === 'expired') throw new AppError('challenge_expired');
  if (!awaited) {
    throw new AppError('invalid_action', 'This challenge does not wait for your proof any more.');
  }
  if (challenge.expirationDate <= now) throw new AppError('challenge_expired');
}

/**
 * Media could not process a proof: if it is the registered one, the challenge (or the side) no
 * longer waits for it. Before the expiration date the performer may upload another; past it the
 * scheduler's next pass expires the challenge or fails the side. Runs in the consumer's
 * handleOnce transaction; the row lock orders it with the scheduler and the registration.
 */
export async function applyVideoProcessingFailed(
  tx: Transaction,
  event: DomainEvent<'VideoProcessingFailed'>,
): Promise<void> {
  const { challengeId, uploadedBy, videoId } = event.data;
  const challenge = await lockChallenge(tx, challengeId);
  if (!challenge) return;
  const cleared =
    challenge.challengeType === 'duel'
      ? await setSidePendingVideo(tx, { challengeId, performerId: uploadedBy }, null, videoId)
      : await setPendingVideo(tx, challengeId, null, videoId);
  if (cleared) await tellWalletOfTimers(tx, challengeId, uploadedBy);
}

/**
 * A deadline anchor after an offline spell from `offlineSince` to `now` (docs/adr/0071): what was
 * still to come when the challenge went offline comes as much later (a deadline moves by the
 * offline time; a judging window that started before moves with it), and a window that started
 * while offline starts now, when the judge can see the video. Anything already past when the
 * challenge went offline stays where it was.
 */
export function resumedAt(
  anchor: Date,
  offlineSince: Date,
  now: Date,
  kind: 'deadline' | 'start',
): Date {
  const offlineMs = Math.max(0, now.getTime() - offlineSince.getTime());
  if (kind === 'deadline') {
    return anchor > offlineSince ? new Date(anchor.getTime() + offlineMs) : anchor;
  }
  return anchor > offlineSince ? now : new Date(anchor.getTime() + offlineMs);
}
