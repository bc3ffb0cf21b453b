import {
  enqueueEvents,
  handleOnce,
  newEvent,
  outboxRow,
  wakeOutboxRelays,
  type DomainEvent,
} from '@challenge/events';
import { AppError, type EscrowHoldRequest, type EscrowHoldView } from '@challenge/kit';
import { z } from 'zod';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import { lockWallets, userBalances } from '../data/ledger.ts';
import {
  findChallengeState,
  findHold,
  findHoldContext,
  holdNewInOneStatement,
  insertHoldOnce,
  insertVoid,
  liveChallengesWithoutHold,
  lockChallengeMoney,
  lockHold,
  lockHolds,
  markDuel,
  markHoldHeldAgain,
  markHoldResolved,
  markHoldSettled,
  nameChallengedUserOnce,
  recordChallengeState,
  recordExpiration,
  strayHolds,
  type HoldParty,
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

/** Statuses in which a duel's challenged user has joined: their stake must be held. */
const JOINED_STATUSES = ['accepted', 'review', 'referee'] as const;

/**
 * Live statuses that end at the expiration date (nobody accepted, or no video came): a stake
 * still held in them past the date plus the grace was missed by the expiry (ADR 0072).
 */
const EXPIRING_STATUSES = ['open', 'accepted'] as const;

/** Whether a party's hold must be held while the challenge is in this status. */
const liveFor = (party: HoldParty, status: string) =>
  party === 'owner' ? isLive(status) : (JOINED_STATUSES as readonly string[]).includes(status);

/**
 * A ledger key of one hold: the owner's keep the keys they always had (`escrow-hold:<id>`), a
 * duel's challenged stake has its own (`escrow-hold:<id>:challenged`), and a stake held again by
 * a new attempt after a void its cycle (`escrow-hold:<id>:challenged:1`), so each moves once.
 */
const keyOf = (prefix: string, hold: Pick<HoldRow, 'challengeId' | 'party' | 'cycle'>) =>
  `${prefix}:${hold.challengeId}${hold.party === 'owner' ? '' : `:${hold.party}`}${
    hold.cycle > 0 ? `:${hold.cycle}` : ''
  }`;

const view = (
  hold: Pick<HoldRow, 'challengeId' | 'ownerId' | 'amountCents' | 'status'>,
): EscrowHoldView => ({
  challengeId: hold.challengeId,
  ownerId: hold.ownerId,
  amountCents: Number(hold.amountCents),
  status: hold.status,
});

/**
 * Holds the reward or throws insufficient_funds; the same request again returns the same hold
 * while it is held. A hold already given back or paid is refused (invalid_action), so that a
 * retried create can never open a challenge with no money behind it (ADR 0015); so is a hold for
 * a challenge whose events already ended it, and a hold of an attempt that was released before
 * it arrived (its answer was lost: ADR 0072). A duel's challenged stake given back by a void is
 * held again for a new attempt while the duel is still open (a retried acceptance).
 *
 * The challenge's money lock comes first: a settlement of the challenge's end either ran before
 * (this sees the ended state and refuses) or runs after (it sees this hold and settles it).
 */
export async function holdReward(
  db: Database,
  request: EscrowHoldRequest,
): Promise<EscrowHoldView> {
  const party = request.party ?? 'owner';
  const attemptKey = request.attempt ?? '';
  const newHold = { ...request, party, attemptKey, amountCents: BigInt(request.amountCents) };
  // A new hold that can be paid, the common case, in one statement (ADR 0098); the figures of its
  // WalletBalanceChanged are filled in by the statement.
  const balanceEvent = newEvent('WalletBalanceChanged', {
    aggregateId: request.ownerId,
    actorId: null,
    data: {
      userId: request.ownerId,
      availableCents: 0,
      frozenCents: 0,
      openPayoutCents: 0,
      version: 0,
    },
  });
  const heldAtOnce = await retryOnConflict(() =>
    holdNewInOneStatement(
      db,
      newHold,
      { liveStatuses: LIVE_STATUSES, transferKey: keyOf('escrow-hold', { ...newHold, cycle: 0 }) },
      outboxRow(balanceEvent),
    ),
  );
  if (heldAtOnce) {
    wakeOutboxRelays();
    return view({ ...newHold, status: 'held' });
  }
  // Everything else (a replay, a retaken duel stake, every refusal) as one transaction of steps.
  return retryOnConflict(() =>
    transactionRunner(db)(async (tx) => {
      await lockChallengeMoney(tx, request.challengeId);
      // Read under the lock: a void and the challenge's status change only under it.
      const context = await findHoldContext(tx, request.challengeId, party, attemptKey);
      if (context.voided) {
        throw new AppError('invalid_action', 'This attempt was given back: it holds nothing.');
      }
      const state = context.challengeStatus === null ? null : { status: context.challengeStatus };
      const created = await insertHoldOnce(tx, {
        ...request,
        party,
        attemptKey,
        amountCents: BigInt(request.amountCents),
      });
      // A hold this call did not create belongs to an earlier attempt: locked before it is read.
      const hold = created ?? (await lockHold(tx, request.challengeId, party));
      if (!hold) throw new Error('the hold of this challenge is missing');
      if (!created) {
        if (hold.ownerId !== request.ownerId || hold.amountCents !== BigInt(request.amountCents)) {
          throw new AppError('invalid_input', 'This challenge already holds a different reward.');
        }
        if (hold.status === 'held') return view(hold);
        // A void ended the previous attempt; a new one joins a duel that is still open.
        const retaken =
          hold.party === 'challenged' &&
          hold.voidedAt !== null &&
          hold.attemptKey !== attemptKey &&
          (!state || state.status === 'open');
        if (!retaken) {
          throw new AppError(
            'invalid_action',
            `This challenge's reward is no longer held (${hold.status}).`,
          );
        }
        const again = { ...hold, attemptKey, cycle: hold.cycle + 1 };
        await transferIn(tx, {
          idempotencyKey: keyOf('escrow-hold', again),
          kind: 'escrow_hold',
          from: { user: hold.ownerId, kind: 'user_available' },
          to: { user: hold.ownerId, kind: 'user_frozen' },
          amountCents: hold.amountCents,
          challengeId: request.challengeId,
        });
        await markHoldHeldAgain(tx, again);
        return view({ ...again, status: 'held' });
      }
      if (state && !isLive(state.status)) {
        // Throwing rolls the new hold row back.
        throw new AppError('invalid_action', 'This challenge has already ended.');
      }
      await transferIn(tx, {
        idempotencyKey: keyOf('escrow-hold', hold),
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
 * hold), or a duel's stake whose acceptance failed: the hold is voided, and so is its attempt.
 * Refused once wallet has seen the challenge live for that party (its own events settle it
 * then). The challenge's money lock serialises this with the settlement of the challenge's
 * events and with holds: if the release wins against a late ChallengeCreated (or Accepted), the
 * event finds the hold voided and takes the reward again (ADR 0015). A repeated release answers
 * the same hold.
 *
 * When the attempt holds nothing (no hold, or the stake now belongs to another attempt), the
 * attempt is recorded as over and the answer is not_found, which the caller counts as done: a
 * hold of that attempt still on its way is refused when it arrives (ADR 0072). Without an
 * attempt, the release means whatever attempt holds the stake.
 */
export async function releaseUnusedHold(
  db: Database,
  challengeId: string,
  party: HoldParty = 'owner',
  attempt?: string,
): Promise<EscrowHoldView> {
  const released = await retryOnConflict(() =>
    transactionRunner(db)(async (tx) => {
      await lockChallengeMoney(tx, challengeId);
      const hold = await lockHold(tx, challengeId, party);
      if (!hold || (attempt !== undefined && hold.attemptKey !== attempt)) {
        await insertVoid(tx, challengeId, party, attempt ?? '');
        return null; // committed: the void must outlive this answer
      }
      if (hold.status === 'released' && hold.voidedAt) return view(hold);
      const state = await findChallengeState(tx, challengeId);
      // The owner's reward is live from the first event; a duel's second stake from acceptance
      // (an open challenge whose acceptance failed gives it back).
      if (state && (party === 'owner' || state.status !== 'open')) {
        throw new AppError(
          'invalid_action',
          'The challenge is live: its own events settle the reward.',
        );
      }
      if (hold.status !== 'held') {
        throw new AppError('invalid_action', `This challenge's reward is ${hold.status}.`);
      }
      await insertVoid(tx, challengeId, party, hold.attemptKey);
      return view(await settle(tx, hold, { void: true }));
    }),
  );
  if (!released) throw new AppError('not_found', 'This attempt holds no reward.');
  return released;
}

async function settle(
  tx: Transaction,
  hold: HoldRow,
  outcome: { release: true } | { void: true } | { payeeId: string },
): Promise<HoldRow> {
  if (hold.status !== 'held') return hold;
  if ('payeeId' in outcome) {
    await ensureWallet(tx, outcome.payeeId, null);
    await transferIn(tx, {
      idempotencyKey: keyOf('escrow-capture', hold),
      kind: 'escrow_capture',
      from: { user: hold.ownerId, kind: 'user_frozen' },
      to: { user: outcome.payeeId, kind: 'user_available' },
      amountCents: hold.amountCents,
      challengeId: hold.challengeId,
    });
    await markHoldSettled(tx, hold, 'captured', outcome.payeeId);
    return { ...hold, status: 'captured', payeeId: outcome.payeeId };
  }
  // A void has its own key: a voided hold taken again and later released moves money twice.
  const voided = 'void' in outcome;
  await transferIn(tx, {
    idempotencyKey: keyOf(voided ? 'escrow-void' : 'escrow-release', hold),
    kind: 'escrow_release',
    from: { user: hold.ownerId, kind: 'user_frozen' },
    to: { user: hold.ownerId, kind: 'user_available' },
    amountCents: hold.amountCents,
    challengeId: hold.challengeId,
  });
  await markHoldSettled(tx, hold, 'released', null, voided);
  return { ...hold, status: 'released', voidedAt: voided ? new Date() : hold.voidedAt };
}

/**
 * A challenge went live after its hold was voided (the release raced a late ChallengeCreated):
 * the reward is taken from the owner's available money again, once. If the owner has spent it,
 * nothing moves, the error is logged and the reconciliation reports the live challenge without
 * a hold for a person to decide.
 */
async function holdAgain(tx: Transaction, hold: HoldRow, log: EscrowLog): Promise<void> {
  await lockWallets(tx, [hold.ownerId]);
  const { availableCents } = await userBalances(tx, hold.ownerId);
  if (availableCents < hold.amountCents) {
    log.error(
      { challengeId: hold.challengeId },
      'a challenge went live after its hold was voided and the owner can no longer pay it',
    );
    return;
  }
  await transferIn(tx, {
    idempotencyKey: keyOf('escrow-rehold', hold),
    kind: 'escrow_hold',
    from: { user: hold.ownerId, kind: 'user_available' },
    to: { user: hold.ownerId, kind: 'user_frozen' },
    amountCents: hold.amountCents,
    challengeId: hold.challengeId,
  });
  await markHoldHeldAgain(tx, hold);
}

type EscrowLog = {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
};

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

/**
 * Records where the challenge is and settles its hold when the challenge ended; once per event.
 * The hold row is locked first, before the state is recorded, so that a release call and this
 * event cannot interleave. A completed challenge pays only the challenged user that its own
 * ChallengeCreated or ChallengeAccepted named; a completion naming someone else, or a challenge
 * that never named one, moves nothing and is logged (the reconciliation reports the hold).
 */
export async function onChallengeEvent(
  db: Database,
  event: ChallengeEvent,
  log: EscrowLog,
): Promise<void> {
  await retryOnConflict(() =>
    handleOnce(transactionRunner(db), ESCROW_CONSUMER, event.id, async (tx) => {
      const { challengeId, ownerId, rewardCents, challengedUserId } = event.data;
      // First the challenge's money lock: a hold being inserted now is either committed and
      // seen below, or waits and then sees the state this event records (ADR 0072).
      await lockChallengeMoney(tx, challengeId);
      const holds = await lockHolds(tx, challengeId);
      await recordChallengeState(tx, {
        challengeId,
        slug: event.data.slug,
        challengeName: event.data.challengeName,
        ownerId,
        status: STATUS_AFTER[event.type],
        rewardCents: BigInt(rewardCents),
        expiresAt: event.data.expiresAt ? new Date(event.data.expiresAt) : null,
        at: new Date(event.occurredAt),
      });
      if (event.data.challengeType === 'duel') await markDuel(tx, challengeId);
      const state = await findChallengeState(tx, challengeId);
      let payee = state?.challengedUserId ?? null;
      if (NAMES_CHALLENGED_USER.has(event.type) && challengedUserId) {
        payee = await nameChallengedUserOnce(tx, challengeId, challengedUserId);
        if (payee !== challengedUserId) {
          log.warn({ challengeId, type: event.type }, 'an event names another challenged user');
        }
      }
      if (isLiveAfter(event.type)) {
        // Only when the challenge is live as recorded (an older event does not overwrite a newer state).
        for (const hold of holds) {
          if (
            hold.status === 'released' &&
            hold.voidedAt &&
            state &&
            liveFor(hold.party, state.status)
          ) {
            await holdAgain(tx, hold, log);
          }
        }
        return;
      }
      if (holds.length === 0) {
        // Nothing to move; the reconciliation has no hold to report either, so say it loudly.
        log.warn({ challengeId, type: event.type }, 'a challenge ended without an escrow hold');
        return;
      }
      if (holds.some((hold) => hold.resolvedBy)) {
        // Staff settled a stray hold by hand before this end arrived: their decision stands.
        log.warn(
          { challengeId, type: event.type },
          'a challenge ended after staff resolved its hold',
        );
      }
      const ownerHold = holds.find((hold) => hold.party === 'owner') ?? null;
      const stake = holds.find((hold) => hold.party === 'challenged') ?? null;
      const decided = event.type === 'ChallengeCompleted' || event.type === 'ChallengeFailed';
      if (decided && (stake || event.data.challengeType === 'duel' || event.data.duelOutcome)) {
        await settleDuel(
          tx,
          event,
          { ownerHold, stake, payee, ownerId: state?.ownerId ?? ownerId },
          log,
        );
        return;
      }
      // Refused, cancelled, expired (and a solo failure): every stake back to whoever staked it.
      if (event.type !== 'ChallengeCompleted') {
        for (const hold of holds) await settle(tx, hold, { release: true });
        return;
      }
      if (!ownerHold || ownerHold.status !== 'held') return;
      if (!payee || (challengedUserId && challengedUserId !== payee)) {
        log.error(
          { challengeId, named: payee, completedFor: challengedUserId },
          'a completed challenge does not name the challenged user its earlier events named: reward kept held',
        );
        return;
      }
      await settle(tx, ownerHold, { payeeId: payee });
    }),
  );
}

/**
 * The expiration date moved, or the timers stopped (offline) or went on: kept for the
 * reconciliation, unless a newer event of the challenge was recorded since.
 */
export async function onExpirationChanged(
  db: Database,
  event: DomainEvent<'ChallengeExpirationChanged'>,
): Promise<void> {
  await handleOnce(transactionRunner(db), ESCROW_CONSUMER, event.id, (tx) =>
    recordExpiration(
      tx,
      event.data.challengeId,
      { expiresAt: new Date(event.data.expiresAt), timersPaused: event.data.timersPaused },
      new Date(event.occurredAt),
    ),
  );
}

/**
 * A duel ended (docs/challenge-states.md): a party who completed gets their own stake back plus
 * the other's if the other failed; both completed or both failed, each stake goes back to its
 * staker. The outcome comes with the event (duelOutcome); a duel's end without it moves nothing
 * and is logged (the reconciliation reports the stakes still held). Each hold moves once: a held
 * hold is settled, a settled one is left alone.
 */
async function settleDuel(
  tx: Transaction,
  event: DomainEvent<'ChallengeCompleted' | 'ChallengeFailed'>,
  parties: {
    ownerHold: HoldRow | null;
    stake: HoldRow | null;
    payee: string | null;
    ownerId: string;
  },
  log: EscrowLog,
): Promise<void> {
  const { challengeId, challengedUserId } = event.data;
  const outcome = event.data.duelOutcome;
  if (!outcome) {
    log.error(
      { challengeId, type: event.type },
      'a duel ended without its outcome: stakes kept held',
    );
    return;
  }
  const { ownerHold, stake, payee, ownerId } = parties;
  if (!stake) log.error({ challengeId }, "a duel ended without the challenged user's stake");
  if (ownerHold?.status === 'held') {
    if (outcome.owner === 'failed' && outcome.challenged === 'completed') {
      // The owner's stake goes to the challenged user: the one named first, who staked too.
      const consistent =
        payee &&
        (!challengedUserId || challengedUserId === payee) &&
        (!stake || stake.ownerId === payee);
      if (consistent) await settle(tx, ownerHold, { payeeId: payee });
      else {
        log.error(
          { challengeId, named: payee, completedFor: challengedUserId },
          "a duel's winner is not the challenged user its earlier events named: reward kept held",
        );
      }
    } else {
      await settle(tx, ownerHold, { release: true });
    }
  }
  if (stake?.status === 'held') {
    if (outcome.challenged === 'failed' && outcome.owner === 'completed') {
      await settle(tx, stake, { payeeId: ownerHold?.ownerId ?? ownerId });
    } else {
      await settle(tx, stake, { release: true });
    }
  }
}

/** The events whose challenged user is the one a reward may be paid to. */
const NAMES_CHALLENGED_USER = new Set<ChallengeEvent['type']>([
  'ChallengeCreated',
  'ChallengeAccepted',
]);

const isLive = (status: string) => (LIVE_STATUSES as readonly string[]).includes(status);

const isLiveAfter = (type: ChallengeEvent['type']) => isLive(STATUS_AFTER[type]);

export interface Reconciliation {
  /** Held stakes that nothing will settle: challenge over, unknown, or past its expiry. */
  holdsWithoutLiveChallenge: MismatchRow[];
  liveChallengesWithoutHold: MismatchRow[];
  checkedAt: Date;
}

/**
 * Every held stake has a live challenge within its expiry, and every live challenge has its
 * stakes held. Mismatches younger than the grace period are left out: the events that explain
 * them may still be on their way (and a date passed by less than the grace is the scheduler's).
 */
export async function reconcileEscrow(db: Database, graceMs: number): Promise<Reconciliation> {
  const checkedAt = new Date();
  const before = new Date(checkedAt.getTime() - graceMs);
  const [holds, challenges] = await Promise.all([
    strayHolds(db, { liveStatuses: LIVE_STATUSES, expiringStatuses: EXPIRING_STATUSES, before }),
    liveChallengesWithoutHold(db, LIVE_STATUSES, JOINED_STATUSES, before),
  ]);
  return { holdsWithoutLiveChallenge: holds, liveChallengesWithoutHold: challenges, checkedAt };
}

export const resolveStrayHoldInput = z.object({
  challengeId: z.uuid(),
  party: z.enum(['owner', 'challenged']).default('owner'),
  outcome: z.enum(['release', 'capture']),
  reason: z.string().trim().min(1).max(800),
});
export type ResolveStrayHoldInput = z.output<typeof resolveStrayHoldInput>;

export interface ResolvedHold extends EscrowHoldView {
  party: HoldParty;
  /** Who got the money: the staker (released) or the other party (captured). */
  payeeId: string;
}

/**
 * Staff settle a held stake the reconciliation reports (its challenge over, unknown, or past its
 * expiry), with a written reason (ADR 0072): released to its staker, or captured to the other
 * party as the challenge's events named them (never anyone else; nobody known: refused). The
 * challenge's money lock and the hold's row lock come first, then the report is asked again for
 * this one hold, so a hold that an event settled meanwhile, or that is live again, is refused
 * (invalid_action) instead of moving twice. The ledger keys are the ones the challenge's own end
 * would use. Moderation's audit log records it from EscrowHoldResolved, written in the same
 * transaction.
 */
export function resolveStrayHold(
  db: Database,
  staffId: string,
  input: ResolveStrayHoldInput,
  graceMs: number,
): Promise<ResolvedHold> {
  const { challengeId, party, outcome, reason } = input;
  return retryOnConflict(() =>
    transactionRunner(db)(async (tx) => {
      await lockChallengeMoney(tx, challengeId);
      const hold = await lockHold(tx, challengeId, party);
      if (!hold) throw new AppError('not_found', 'This challenge holds no such stake.');
      const [stray] = await strayHolds(tx, {
        liveStatuses: LIVE_STATUSES,
        expiringStatuses: EXPIRING_STATUSES,
        before: new Date(Date.now() - graceMs),
        only: { challengeId, party },
      });
      if (!stray || hold.status !== 'held') {
        throw new AppError(
          'invalid_action',
          'This stake is not reported (any more): its challenge settles it.',
        );
      }
      // The staff conflict rule (docs/adr/0070): nobody settles a stake they staked or could get.
      if (staffId === hold.ownerId || staffId === stray.captureToId) {
        throw new AppError(
          'access_denied',
          'You cannot settle a stake of a challenge you take part in.',
        );
      }
      const payeeId = outcome === 'release' ? hold.ownerId : stray.captureToId;
      if (!payeeId || (outcome === 'capture' && payeeId === hold.ownerId)) {
        throw new AppError(
          'invalid_action',
          'Nobody is known to receive this stake: give it back to whoever staked it.',
        );
      }
      const settled = await settle(
        tx,
        hold,
        outcome === 'release' ? { release: true } : { payeeId },
      );
      await markHoldResolved(tx, hold, staffId, reason);
      await enqueueEvents(tx, [
        newEvent('EscrowHoldResolved', {
          aggregateId: challengeId,
          actorId: staffId,
          data: {
            challengeId,
            party,
            stakerId: hold.ownerId,
            payeeId,
            amountCents: Number(hold.amountCents),
            outcome: outcome === 'release' ? 'released' : 'captured',
            mismatch: stray.reason as 'challenge_over' | 'challenge_missing' | 'past_expiry',
            reason,
          },
        }),
      ]);
      return { ...view(settled), party, payeeId };
    }),
  );
}

export async function getHold(
  db: Database,
  challengeId: string,
  party: HoldParty = 'owner',
): Promise<EscrowHoldView | null> {
  const hold = await findHold(db, challengeId, party);
  return hold && view(hold);
}
