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
} as const;

/**
 * Inserts the hold unless the challenge already has one for this staker or this party; true
 * when this call created it.
 */
export async function insertHoldOnce(
  tx: Transaction,
  hold: Pick<
    HoldRow,
    'challengeId' | 'ownerId' | 'party' | 'amountCents' | 'slug' | 'challengeName'
  >,
): Promise<boolean> {
  const inserted = await tx.$executeRaw`
    INSERT INTO escrow_holds (challenge_id, owner_id, party, amount_cents, slug, challenge_name)
    VALUES (${hold.challengeId}::uuid, ${hold.ownerId}::uuid, ${hold.party}::"HoldParty", ${hold.amountCents},
            ${hold.slug}, ${hold.challengeName})
    ON CONFLICT DO NOTHING`;
  return inserted === 1;
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

/** A voided hold held again (its challenge went live after all); voidedAt stays as a record. */
export async function markHoldHeldAgain(
  tx: Transaction,
  hold: Pick<HoldRow, 'challengeId' | 'party'>,
): Promise<void> {
  await tx.escrowHold.update({
    where: { challengeId_party: { challengeId: hold.challengeId, party: hold.party } },
    data: { status: 'held', settledAt: null },
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
    at: Date;
  },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO challenge_states (challenge_id, slug, challenge_name, status, owner_id, reward_cents, updated_at)
    VALUES (${state.challengeId}::uuid, ${state.slug}, ${state.challengeName}, ${state.status}, ${state.ownerId}::uuid,
            ${state.rewardCents}, ${state.at})
    ON CONFLICT (challenge_id) DO UPDATE
      SET status = EXCLUDED.status, reward_cents = EXCLUDED.reward_cents, updated_at = EXCLUDED.updated_at,
          slug = EXCLUDED.slug, challenge_name = EXCLUDED.challenge_name
      WHERE challenge_states.updated_at <= EXCLUDED.updated_at`;
}

export interface MismatchRow {
  challengeId: string;
  slug: string | null;
  challengeName: string | null;
  ownerId: string;
  amountCents: bigint;
  createdAt: Date;
  challengeStatus: string | null;
}

/** Held rewards whose challenge is not live (or unknown), older than `before`. */
export function holdsWithoutLiveChallenge(
  db: Database,
  liveStatuses: readonly string[],
  before: Date,
): Promise<MismatchRow[]> {
  return db.$queryRaw<MismatchRow[]>`
    SELECT h.challenge_id::text AS "challengeId", h.slug, h.challenge_name AS "challengeName",
           h.owner_id::text AS "ownerId", h.amount_cents AS "amountCents",
           h.created_at AS "createdAt", s.status AS "challengeStatus"
    FROM escrow_holds h LEFT JOIN challenge_states s ON s.challenge_id = h.challenge_id
    WHERE h.status = 'held' AND h.created_at < ${before}
      AND (s.status IS NULL OR NOT (s.status = ANY(${[...liveStatuses]}::text[])))
    ORDER BY h.created_at`;
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
    SELECT s.challenge_id::text AS "challengeId", NULLIF(s.slug, '') AS slug,
           NULLIF(s.challenge_name, '') AS "challengeName", s.owner_id::text AS "ownerId", s.reward_cents AS "amountCents",
           s.updated_at AS "createdAt", s.status AS "challengeStatus"
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
