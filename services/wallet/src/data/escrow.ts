import type { outboxRow } from '@challenge/events';
import type { Database, Transaction } from './db.ts';
import type { HoldParty, HoldStatus } from './generated/enums.ts';

export type { HoldParty, HoldStatus };

export interface HoldRow {
  challengeId: string;
  /** The staker, whose money is held. */
  ownerId: string;
  party: HoldParty;
  amountCents: bigint;
  slug: string;
  challengeName: string;
  status: HoldStatus;
  payeeId: string | null;
  createdAt: Date;
  voidedAt: Date | null;
  attemptKey: string;
  cycle: number;
  resolvedBy: string | null;
}

const holdColumns = {
  challengeId: true,
  ownerId: true,
  party: true,
  amountCents: true,
  slug: true,
  challengeName: true,
  status: true,
  payeeId: true,
  createdAt: true,
  voidedAt: true,
  attemptKey: true,
  cycle: true,
  resolvedBy: true,
} as const;

/**
 * The class of wallet's per-challenge advisory locks (the key's first half; any constant). The
 * function wallet_hold_new_escrow (migration 20261126205500) takes the same lock: keep them equal.
 */
const CHALLENGE_MONEY_LOCK = 720_018;

/**
 * Serialises every change of one challenge's money until the transaction ends: a hold, a
 * release, the settlement of an event, a staff resolution. Taken first, before any row, by each
 * of them; a row lock cannot do it, because the row a hold inserts does not exist yet for the
 * settlement to lock, and under READ COMMITTED a settlement would not see it (ADR 0072).
 * hashtext may map two challenges to one key: they then merely wait for each other.
 */
export async function lockChallengeMoney(tx: Transaction, challengeId: string): Promise<void> {
  await tx.$queryRaw`
    SELECT 1 FROM (SELECT pg_advisory_xact_lock(${CHALLENGE_MONEY_LOCK}::int4, hashtext(${challengeId}))) AS locked`;
}

/** Records that an attempt is over: its hold, should one arrive later, is refused. */
export async function insertVoid(
  tx: Transaction,
  challengeId: string,
  party: HoldParty,
  attemptKey: string,
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO escrow_voids (challenge_id, party, attempt_key)
    VALUES (${challengeId}::uuid, ${party}::"HoldParty", ${attemptKey})
    ON CONFLICT DO NOTHING`;
}

/**
 * What a hold must know once the challenge's money lock is held, in one round trip: whether
 * this attempt was voided, and the challenge's status as wallet last recorded it (null: wallet
 * has not seen the challenge yet). Both change only under that lock, so they stay true until
 * the transaction ends.
 */
export async function findHoldContext(
  tx: Transaction,
  challengeId: string,
  party: HoldParty,
  attemptKey: string,
): Promise<{ voided: boolean; challengeStatus: string | null }> {
  const [row] = await tx.$queryRaw<{ voided: boolean; challengeStatus: string | null }[]>`
    SELECT EXISTS (SELECT 1 FROM escrow_voids
                    WHERE challenge_id = ${challengeId}::uuid AND party = ${party}::"HoldParty"
                      AND attempt_key = ${attemptKey}) AS voided,
           (SELECT status FROM challenge_states
             WHERE challenge_id = ${challengeId}::uuid) AS "challengeStatus"`;
  return { voided: row?.voided ?? false, challengeStatus: row?.challengeStatus ?? null };
}

/**
 * A new hold, its transfer, both balances, the wallet's version and its WalletBalanceChanged
 * outbox row, in one statement and one round trip (wallet_hold_new_escrow, migration
 * 20261126205500, ADR 0098): the challenge's money lock first, then the wallet and its accounts
 * locked in the ledger's order. True when it held the money; false when it wrote nothing because
 * this is not a new hold that can be paid (voided attempt, ended challenge, a hold already there,
 * no wallet or not enough money): the caller then runs the full transaction.
 */
export async function holdNewInOneStatement(
  db: Database,
  hold: Pick<
    HoldRow,
    'challengeId' | 'ownerId' | 'party' | 'amountCents' | 'slug' | 'challengeName' | 'attemptKey'
  >,
  rules: { liveStatuses: readonly string[]; transferKey: string },
  balanceEvent: ReturnType<typeof outboxRow>,
): Promise<boolean> {
  const [row] = await db.$queryRaw<{ held: boolean }[]>`
    SELECT wallet_hold_new_escrow(
      ${hold.challengeId}, ${hold.ownerId}::uuid, ${hold.party}::"HoldParty", ${hold.amountCents},
      ${hold.slug}, ${hold.challengeName}, ${hold.attemptKey}, ${[...rules.liveStatuses]}::text[],
      ${rules.transferKey}, ${balanceEvent.id}::uuid, ${balanceEvent.topic}, ${balanceEvent.key},
      ${balanceEvent.payload}::jsonb, ${balanceEvent.traceContext}::jsonb) AS held`;
  return row?.held === true;
}

/**
 * Inserts the hold unless the challenge already has one for this staker or this party; the new
 * row when this call created it (this transaction's own row: no other can lock or see it before
 * the commit), null otherwise.
 */
export async function insertHoldOnce(
  tx: Transaction,
  hold: Pick<
    HoldRow,
    'challengeId' | 'ownerId' | 'party' | 'amountCents' | 'slug' | 'challengeName' | 'attemptKey'
  >,
): Promise<HoldRow | null> {
  const [row] = await tx.$queryRaw<HoldRow[]>`
    INSERT INTO escrow_holds (challenge_id, owner_id, party, amount_cents, slug, challenge_name, attempt_key)
    VALUES (${hold.challengeId}::uuid, ${hold.ownerId}::uuid, ${hold.party}::"HoldParty", ${hold.amountCents},
            ${hold.slug}, ${hold.challengeName}, ${hold.attemptKey})
    ON CONFLICT DO NOTHING
    RETURNING challenge_id::text AS "challengeId", owner_id::text AS "ownerId", party::text AS party,
              amount_cents AS "amountCents", slug, challenge_name AS "challengeName",
              status::text AS status, payee_id::text AS "payeeId", created_at AS "createdAt",
              voided_at AS "voidedAt", attempt_key AS "attemptKey", cycle,
              resolved_by::text AS "resolvedBy"`;
  return row ?? null;
}

/**
 * One party's hold, locked until the transaction ends, so that two settlements cannot both see
 * it held.
 */
export async function lockHold(
  tx: Transaction,
  challengeId: string,
  party: HoldParty,
): Promise<HoldRow | null> {
  const rows = await tx.$queryRaw<{ challengeId: string }[]>`
    SELECT challenge_id::text AS "challengeId" FROM escrow_holds
     WHERE challenge_id = ${challengeId}::uuid AND party = ${party}::"HoldParty" FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.escrowHold.findUniqueOrThrow({
    where: { challengeId_party: { challengeId, party } },
    select: holdColumns,
  });
}

/** Every hold of a challenge (a duel has two), locked, the owner's first: one lock order. */
export async function lockHolds(tx: Transaction, challengeId: string): Promise<HoldRow[]> {
  await tx.$queryRaw`
    SELECT 1 FROM escrow_holds WHERE challenge_id = ${challengeId}::uuid ORDER BY party FOR UPDATE`;
  return tx.escrowHold.findMany({
    where: { challengeId },
    select: holdColumns,
    orderBy: { party: 'asc' },
  });
}

export async function markHoldSettled(
  tx: Transaction,
  hold: Pick<HoldRow, 'challengeId' | 'party'>,
  status: 'captured' | 'released',
  payeeId: string | null,
  voided = false,
): Promise<void> {
  const now = new Date();
  await tx.escrowHold.update({
    where: { challengeId_party: { challengeId: hold.challengeId, party: hold.party } },
    data: { status, payeeId, settledAt: now, ...(voided ? { voidedAt: now } : {}) },
  });
}

/**
 * A voided hold held again: by its challenge's late live event (same attempt and cycle), or by a
 * new attempt (its key, the next cycle). voidedAt is cleared: it marks a hold released by a void.
 */
export async function markHoldHeldAgain(
  tx: Transaction,
  hold: Pick<HoldRow, 'challengeId' | 'party' | 'attemptKey' | 'cycle'>,
): Promise<void> {
  await tx.escrowHold.update({
    where: { challengeId_party: { challengeId: hold.challengeId, party: hold.party } },
    data: {
      status: 'held',
      settledAt: null,
      voidedAt: null,
      attemptKey: hold.attemptKey,
      cycle: hold.cycle,
    },
  });
}

/** Staff settled a stray hold by hand (after markHoldSettled, in the same transaction). */
export async function markHoldResolved(
  tx: Transaction,
  hold: Pick<HoldRow, 'challengeId' | 'party'>,
  staffId: string,
  reason: string,
): Promise<void> {
  await tx.escrowHold.update({
    where: { challengeId_party: { challengeId: hold.challengeId, party: hold.party } },
    data: { resolvedBy: staffId, resolutionReason: reason },
  });
}

export function findChallengeState(db: Database | Transaction, challengeId: string) {
  return db.challengeState.findUnique({
    where: { challengeId },
    select: { status: true, challengedUserId: true, ownerId: true },
  });
}

/**
 * Names the challenged user once: the first ChallengeCreated or ChallengeAccepted that names one
 * fixes who a captured reward may go to. Returns the user now on record.
 */
export async function nameChallengedUserOnce(
  tx: Transaction,
  challengeId: string,
  challengedUserId: string,
): Promise<string | null> {
  await tx.$executeRaw`
    UPDATE challenge_states SET challenged_user_id = ${challengedUserId}::uuid
    WHERE challenge_id = ${challengeId}::uuid AND challenged_user_id IS NULL`;
  return (await findChallengeState(tx, challengeId))?.challengedUserId ?? null;
}

export function findHold(
  db: Database,
  challengeId: string,
  party: HoldParty = 'owner',
): Promise<HoldRow | null> {
  return db.escrowHold.findUnique({
    where: { challengeId_party: { challengeId, party } },
    select: holdColumns,
  });
}

/** The challenges named in these transfers, for the history's "reward held for challenge X". */
export function holdsOfChallenges(db: Database, challengeIds: string[]) {
  return db.escrowHold.findMany({
    where: { challengeId: { in: challengeIds } },
    select: { challengeId: true, slug: true, challengeName: true },
  });
}

/** Records where a challenge is now; an older event never overwrites a newer state. */
export async function recordChallengeState(
  tx: Transaction,
  state: {
    challengeId: string;
    slug: string;
    challengeName: string;
    status: string;
    ownerId: string;
    rewardCents: bigint;
    /** The expiration date when the event carries it; an event without it keeps the known one. */
    expiresAt: Date | null;
    at: Date;
  },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO challenge_states (challenge_id, slug, challenge_name, status, owner_id, reward_cents, expires_at, updated_at)
    VALUES (${state.challengeId}::uuid, ${state.slug}, ${state.challengeName}, ${state.status}, ${state.ownerId}::uuid,
            ${state.rewardCents}, ${state.expiresAt}, ${state.at})
    ON CONFLICT (challenge_id) DO UPDATE
      SET status = EXCLUDED.status, reward_cents = EXCLUDED.reward_cents, updated_at = EXCLUDED.updated_at,
          slug = EXCLUDED.slug, challenge_name = EXCLUDED.challenge_name,
          expires_at = COALESCE(EXCLUDED.expires_at, challenge_states.expires_at)
      WHERE challenge_states.updated_at <= EXCLUDED.updated_at`;
}

/** Why a held stake is reported: its challenge ended, is unknown to wallet, or is past its expiry. */
export type StrayReason = 'challenge_over' | 'challenge_missing' | 'past_expiry';

export interface MismatchRow {
  challengeId: string;
  party: HoldParty;
  slug: string | null;
  challengeName: string | null;
  /** The staker (a hold), or the challenge's owner (a live challenge without a hold). */
  ownerId: string;
  amountCents: bigint;
  createdAt: Date;
  challengeStatus: string | null;
  expiresAt: Date | null;
  reason: StrayReason | 'hold_missing';
  /** Who a capture of this hold pays: the other party as the challenge's events named them. */
  captureToId: string | null;
}

/**
 * Held stakes that nothing will settle, older than `before`: their challenge is over (not
 * live), unknown to wallet, or live in a status that expires (`expiringStatuses`) but past its
 * expiration date by more than the grace (`before` again). One query for the report and for the
 * re-check of a staff resolution (`only`), so the two can never disagree.
 */
export function strayHolds(
  db: Database | Transaction,
  options: {
    liveStatuses: readonly string[];
    expiringStatuses: readonly string[];
    before: Date;
    only?: { challengeId: string; party: HoldParty };
  },
): Promise<MismatchRow[]> {
  const { liveStatuses, expiringStatuses, before, only } = options;
  return db.$queryRaw<MismatchRow[]>`
    SELECT h.challenge_id::text AS "challengeId", h.party::text AS party, h.slug,
           h.challenge_name AS "challengeName", h.owner_id::text AS "ownerId",
           h.amount_cents AS "amountCents", h.created_at AS "createdAt", s.status AS "challengeStatus",
           s.expires_at AS "expiresAt",
           CASE WHEN s.challenge_id IS NULL THEN 'challenge_missing'
                WHEN NOT (s.status = ANY(${[...liveStatuses]}::text[])) THEN 'challenge_over'
                ELSE 'past_expiry' END AS reason,
           (CASE WHEN h.party = 'owner' THEN s.challenged_user_id ELSE s.owner_id END)::text AS "captureToId"
    FROM escrow_holds h LEFT JOIN challenge_states s ON s.challenge_id = h.challenge_id
    WHERE h.status = 'held' AND h.created_at < ${before}
      AND (s.challenge_id IS NULL
        OR NOT (s.status = ANY(${[...liveStatuses]}::text[]))
        OR (s.status = ANY(${[...expiringStatuses]}::text[]) AND s.expires_at < ${before}
            AND NOT s.timers_paused))
      AND (${only?.challengeId ?? null}::uuid IS NULL
        OR (h.challenge_id = ${only?.challengeId ?? null}::uuid AND h.party = ${only?.party ?? null}::"HoldParty"))
    ORDER BY h.created_at`;
}

/**
 * A new expiration date of a challenge wallet knows, unless a newer event has been recorded
 * since (that one carried the date as it was then).
 */
export async function recordExpiration(
  tx: Transaction,
  challengeId: string,
  change: { expiresAt: Date; timersPaused?: boolean },
  at: Date,
): Promise<void> {
  await tx.$executeRaw`
    UPDATE challenge_states
       SET expires_at = ${change.expiresAt},
           timers_paused = COALESCE(${change.timersPaused ?? null}::boolean, timers_paused)
     WHERE challenge_id = ${challengeId}::uuid AND updated_at <= ${at}`;
}

/** Marks a challenge as a duel (an event said so); never changed back. */
export async function markDuel(tx: Transaction, challengeId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE challenge_states SET challenge_type = 'duel'
    WHERE challenge_id = ${challengeId}::uuid AND challenge_type <> 'duel'`;
}

/**
 * Live challenges (as last seen) with no reward held for them, last changed before `before`: no
 * owner's reward held, or a duel past acceptance (`joinedStatuses`) without the challenged
 * user's stake held.
 */
export function liveChallengesWithoutHold(
  db: Database,
  liveStatuses: readonly string[],
  joinedStatuses: readonly string[],
  before: Date,
): Promise<MismatchRow[]> {
  return db.$queryRaw<MismatchRow[]>`
    SELECT s.challenge_id::text AS "challengeId",
           (CASE WHEN EXISTS (SELECT 1 FROM escrow_holds h WHERE h.challenge_id = s.challenge_id
                                 AND h.party = 'owner' AND h.status = 'held')
                 THEN 'challenged' ELSE 'owner' END) AS party,
           NULLIF(s.slug, '') AS slug, NULLIF(s.challenge_name, '') AS "challengeName",
           s.owner_id::text AS "ownerId", s.reward_cents AS "amountCents",
           s.updated_at AS "createdAt", s.status AS "challengeStatus", s.expires_at AS "expiresAt",
           'hold_missing' AS reason, NULL::text AS "captureToId"
    FROM challenge_states s
    WHERE s.updated_at < ${before}
      AND ((s.status = ANY(${[...liveStatuses]}::text[]) AND NOT EXISTS (
              SELECT 1 FROM escrow_holds h
               WHERE h.challenge_id = s.challenge_id AND h.party = 'owner' AND h.status = 'held'))
        OR (s.challenge_type = 'duel' AND s.status = ANY(${[...joinedStatuses]}::text[]) AND NOT EXISTS (
              SELECT 1 FROM escrow_holds h
               WHERE h.challenge_id = s.challenge_id AND h.party = 'challenged' AND h.status = 'held')))
    ORDER BY s.updated_at`;
}
