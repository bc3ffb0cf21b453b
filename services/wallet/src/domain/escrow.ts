import { handleOnce, type DomainEvent } from '@challenge/events';
import { AppError, type EscrowHoldRequest, type EscrowHoldView } from '@challenge/kit';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import {
  findHold,
  holdsWithoutLiveChallenge,
  insertHoldOnce,
  liveChallengesWithoutHold,
  lockHold,
  markHoldSettled,
  recordChallengeState,
  type HoldRow,
  type MismatchRow,
} from '../data/escrow.ts';

export type { MismatchRow };
import { retryOnConflict, transferIn } from './ledger.ts';
import { ensureWallet } from './wallets.ts';

/**
 * The money side of the challenge saga (DESIGN.md section 3). Creating a challenge holds its
 * reward: the owner's available money moves to their frozen money, keyed by the challenge id.
 * The challenge's events settle the hold exactly once: completed pays the challenged user,
 * refused, failed, cancelled and expired give it back to the owner.
 */
export const ESCROW_CONSUMER = 'wallet-escrow';

/** Statuses in which a challenge's reward must be held. */
export const LIVE_STATUSES = ['draft', 'open', 'accepted', 'review', 'referee'] as const;

const view = (hold: HoldRow): EscrowHoldView => ({
  challengeId: hold.challengeId,
  ownerId: hold.ownerId,
  amountCents: Number(hold.amountCents),
  status: hold.status,
});

/** Holds the reward or throws insufficient_funds; the same request again returns the same hold. */
export function holdReward(db: Database, request: EscrowHoldRequest): Promise<EscrowHoldView> {
  return retryOnConflict(() =>
    transactionRunner(db)(async (tx) => {
      const created = await insertHoldOnce(tx, {
        ...request,
        amountCents: BigInt(request.amountCents),
      });
      const hold = (await lockHold(tx, request.challengeId))!;
      if (!created) {
        if (hold.ownerId !== request.ownerId || hold.amountCents !== BigInt(request.amountCents)) {
          throw new AppError('invalid_input', 'This challenge already holds a different reward.');
        }
        return view(hold);
      }
      await transferIn(tx, {
        idempotencyKey: `escrow-hold:${request.challengeId}`,
        kind: 'escrow_hold',
        from: { user: request.ownerId, kind: 'user_available' },
        to: { user: request.ownerId, kind: 'user_frozen' },
        amountCents: hold.amountCents,
        challengeId: request.challengeId,
      });
      return view(hold);
    }),
  );
}

/**
 * Gives back a hold whose challenge never went live (challenge could not open it after the
 * hold). A challenge wallet has seen live keeps its hold until its own events settle it.
 */
export function releaseUnusedHold(db: Database, challengeId: string): Promise<EscrowHoldView> {
  return retryOnConflict(() =>
    transactionRunner(db)(async (tx) => {
      const hold = await lockHold(tx, challengeId);
      if (!hold) throw new AppError('not_found', 'This challenge holds no reward.');
      const state = await tx.challengeState.findUnique({ where: { challengeId } });
      if (state && state.status !== 'draft') {
        throw new AppError(
          'invalid_action',
          'The challenge is live: its own events settle the reward.',
        );
      }
      return view(await settle(tx, hold, { release: true }));
    }),
  );
}

async function settle(
  tx: Transaction,
  hold: HoldRow,
  outcome: { release: true } | { payeeId: string },
): Promise<HoldRow> {
  if (hold.status !== 'held') return hold;
  if ('payeeId' in outcome) {
    await ensureWallet(tx, outcome.payeeId, null);
    await transferIn(tx, {
      idempotencyKey: `escrow-capture:${hold.challengeId}`,
      kind: 'escrow_capture',
      from: { user: hold.ownerId, kind: 'user_frozen' },
      to: { user: outcome.payeeId, kind: 'user_available' },
      amountCents: hold.amountCents,
      challengeId: hold.challengeId,
    });
    await markHoldSettled(tx, hold.challengeId, 'captured', outcome.payeeId);
    return { ...hold, status: 'captured', payeeId: outcome.payeeId };
  }
  await transferIn(tx, {
    idempotencyKey: `escrow-release:${hold.challengeId}`,
    kind: 'escrow_release',
    from: { user: hold.ownerId, kind: 'user_frozen' },
    to: { user: hold.ownerId, kind: 'user_available' },
    amountCents: hold.amountCents,
    challengeId: hold.challengeId,
  });
  await markHoldSettled(tx, hold.challengeId, 'released', null);
  return { ...hold, status: 'released' };
}

type ChallengeEvent = DomainEvent<
  | 'ChallengeCreated'
  | 'ChallengeAccepted'
  | 'ChallengeRefused'
  | 'ChallengeVideoUploaded'
  | 'ChallengeSentToReferee'
  | 'ChallengeCompleted'
  | 'ChallengeFailed'
  | 'ChallengeCancelled'
  | 'ChallengeExpired'
>;

/** The status each event leaves its challenge in. */
export const STATUS_AFTER: Record<ChallengeEvent['type'], string> = {
  ChallengeCreated: 'open',
  ChallengeAccepted: 'accepted',
  ChallengeRefused: 'refused',
  ChallengeVideoUploaded: 'review',
  ChallengeSentToReferee: 'referee',
  ChallengeCompleted: 'completed',
  ChallengeFailed: 'failed',
  ChallengeCancelled: 'cancelled',
  ChallengeExpired: 'expired',
};

export const CHALLENGE_EVENT_TYPES = Object.keys(STATUS_AFTER) as ChallengeEvent['type'][];

/** Records where the challenge is and settles its hold when the challenge ended; once per event. */
export async function onChallengeEvent(
  db: Database,
  event: ChallengeEvent,
  log: { warn(object: object, message: string): void },
): Promise<void> {
  await retryOnConflict(() =>
    handleOnce(transactionRunner(db), ESCROW_CONSUMER, event.id, async (tx) => {
      const { challengeId, ownerId, rewardCents, challengedUserId } = event.data;
      await recordChallengeState(tx, {
        challengeId,
        slug: event.data.slug,
        challengeName: event.data.challengeName,
        ownerId,
        status: STATUS_AFTER[event.type],
        rewardCents: BigInt(rewardCents),
        at: new Date(event.occurredAt),
      });
      if (isLiveAfter(event.type)) return;
      const hold = await lockHold(tx, challengeId);
      if (!hold) {
        // Nothing to move; the reconciliation has no hold to report either, so say it loudly.
        log.warn({ challengeId, type: event.type }, 'a challenge ended without an escrow hold');
        return;
      }
      if (hold.status !== 'held') return;
      if (event.type === 'ChallengeCompleted') {
        if (!challengedUserId)
          throw new Error(`completed challenge ${challengeId} has no challenged user`);
        await settle(tx, hold, { payeeId: challengedUserId });
      } else {
        await settle(tx, hold, { release: true });
      }
    }),
  );
}

const isLiveAfter = (type: ChallengeEvent['type']) =>
  (LIVE_STATUSES as readonly string[]).includes(STATUS_AFTER[type]);

export interface Reconciliation {
  holdsWithoutLiveChallenge: MismatchRow[];
  liveChallengesWithoutHold: MismatchRow[];
  checkedAt: Date;
}

/**
 * Every open hold has a live challenge and every live challenge has its hold. Mismatches younger
 * than the grace period are left out: the events that explain them may still be on their way.
 */
export async function reconcileEscrow(db: Database, graceMs: number): Promise<Reconciliation> {
  const checkedAt = new Date();
  const before = new Date(checkedAt.getTime() - graceMs);
  const [holds, challenges] = await Promise.all([
    holdsWithoutLiveChallenge(db, LIVE_STATUSES, before),
    liveChallengesWithoutHold(db, LIVE_STATUSES, before),
  ]);
  return { holdsWithoutLiveChallenge: holds, liveChallengesWithoutHold: challenges, checkedAt };
}

export async function getHold(db: Database, challengeId: string): Promise<EscrowHoldView | null> {
  const hold = await findHold(db, challengeId);
  return hold && view(hold);
}
