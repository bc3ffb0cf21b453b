import { LIST_DEPTH_MAX } from '@challenge/kit';
import type { Database, Transaction } from './db.ts';
import type { PayoutStatus } from './generated/enums.ts';

export type { PayoutStatus };

export interface PaymentProfileRow {
  name: string;
  iban: string;
  /** Null: none given (an IBAN of the EEA needs none). */
  bic: string | null;
  address: string;
  postalCode: string;
  city: string;
  countryCode: string;
  phoneNumber: string;
}

export function findPaymentProfile(db: Database | Transaction, userId: string) {
  return db.paymentProfile.findUnique({ where: { userId } });
}

export async function deletePaymentProfile(tx: Transaction, userId: string): Promise<void> {
  await tx.paymentProfile.deleteMany({ where: { userId } });
}

export function savePaymentProfile(
  db: Database | Transaction,
  userId: string,
  profile: PaymentProfileRow & { ibanChangedAt?: Date },
) {
  return db.paymentProfile.upsert({
    where: { userId },
    create: { userId, ...profile },
    update: profile,
  });
}

/** The profile locked for the rest of the transaction (two changes at once are ordered). */
export async function lockPaymentProfile(tx: Transaction, userId: string) {
  await tx.$queryRaw`SELECT user_id FROM payment_profiles WHERE user_id = ${userId}::uuid FOR UPDATE`;
  return tx.paymentProfile.findUnique({ where: { userId } });
}

export function markPayoutReleased(tx: Transaction, id: string, staffId: string) {
  return tx.payoutRequest.update({
    where: { id },
    data: { releasedAt: new Date(), releasedBy: staffId },
    select: payoutColumns,
  });
}

const payoutColumns = {
  id: true,
  userId: true,
  amountCents: true,
  name: true,
  iban: true,
  bic: true,
  address: true,
  postalCode: true,
  city: true,
  countryCode: true,
  status: true,
  exportBatch: true,
  exportedAt: true,
  createdAt: true,
  completedAt: true,
  cancelledAt: true,
  cancelReason: true,
  heldForReview: true,
  ibanChangedAt: true,
  releasedAt: true,
} as const;

/** Payouts whose money is still frozen: asked for, maybe in a SEPA file, not yet done. */
export const UNPAID_STATUSES: PayoutStatus[] = ['open', 'exported'];

export type PayoutRow = NonNullable<Awaited<ReturnType<typeof findPayout>>>;

export function findPayout(db: Database | Transaction, id: string) {
  return db.payoutRequest.findUnique({ where: { id }, select: payoutColumns });
}

export function findPayoutByRequestKey(tx: Transaction, requestKey: string) {
  return tx.payoutRequest.findUnique({ where: { requestKey }, select: payoutColumns });
}

export function insertPayout(
  tx: Transaction,
  payout: PaymentProfileRow & {
    userId: string;
    amountCents: bigint;
    requestKey: string | null;
    heldForReview: boolean;
    ibanChangedAt: Date | null;
  },
) {
  return tx.payoutRequest.create({
    data: {
      userId: payout.userId,
      amountCents: payout.amountCents,
      name: payout.name,
      iban: payout.iban,
      bic: payout.bic,
      address: payout.address,
      postalCode: payout.postalCode,
      city: payout.city,
      countryCode: payout.countryCode,
      heldForReview: payout.heldForReview,
      ibanChangedAt: payout.ibanChangedAt,
      requestKey: payout.requestKey,
    },
    select: payoutColumns,
  });
}

/** The payout, locked until the transaction ends: completing it twice at once cannot pay twice. */
export async function lockPayout(tx: Transaction, id: string): Promise<PayoutRow | null> {
  const rows = await tx.$queryRaw<
    unknown[]
  >`SELECT 1 FROM payout_requests WHERE id = ${id}::uuid FOR UPDATE`;
  return rows.length ? findPayout(tx, id) : null;
}

export function markPayoutDone(tx: Transaction, id: string, staffId: string) {
  return tx.payoutRequest.update({
    where: { id },
    data: { status: 'done', completedAt: new Date(), completedBy: staffId },
    select: payoutColumns,
  });
}

export async function listPayouts(
  db: Database,
  filter: { status?: PayoutStatus; skip: number; take: number },
) {
  const where = filter.status ? { status: filter.status } : {};
  const [rows, total] = await Promise.all([
    db.payoutRequest.findMany({
      where,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip: filter.skip,
      take: filter.take,
      select: payoutColumns,
    }),
    db.payoutRequest.count({ where, take: LIST_DEPTH_MAX }),
  ]);
  return { rows, total };
}

/**
 * Claims the payouts of one SEPA file in one statement: `open` ones (and, for a lost file, the
 * `exported` ones again) become `exported` with this batch, their rows locked while they are
 * read. A second export at the same moment waits for the locks, then finds them no longer
 * open (PostgreSQL re-checks a locked row's WHERE), so no payout is in two new files.
 */
export async function claimPayoutsForExport(
  tx: Transaction,
  includeExported: boolean,
  batch: string,
  at: Date,
): Promise<PayoutRow[]> {
  const statuses = includeExported ? UNPAID_STATUSES : ['open'];
  const claimed = await tx.$queryRaw<{ id: string }[]>`
    UPDATE payout_requests SET status = 'exported', export_batch = ${batch},
      exported_at = (${at.toISOString()}::timestamptz AT TIME ZONE 'UTC')
    WHERE id IN (
      SELECT id FROM payout_requests WHERE status::text = ANY(${statuses}::text[])
        -- Held after an IBAN change until staff release it.
        AND (NOT held_for_review OR released_at IS NOT NULL)
      ORDER BY id FOR UPDATE)
    RETURNING id::text AS id`;
  if (claimed.length === 0) return [];
  return tx.payoutRequest.findMany({
    where: { id: { in: claimed.map((row) => row.id) } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: payoutColumns,
  });
}

/** The open payouts an export leaves out: held after an IBAN change and not yet released. */
export async function heldForReviewTotals(
  tx: Transaction,
): Promise<{ count: number; amountCents: bigint }> {
  const where = { status: 'open' as const, heldForReview: true, releasedAt: null };
  const sum = await tx.payoutRequest.aggregate({
    _count: true,
    _sum: { amountCents: true },
    where,
  });
  return { count: sum._count, amountCents: sum._sum.amountCents ?? 0n };
}

export function markPayoutCancelled(tx: Transaction, id: string, staffId: string, reason: string) {
  return tx.payoutRequest.update({
    where: { id },
    data: {
      status: 'cancelled',
      cancelledAt: new Date(),
      cancelledBy: staffId,
      cancelReason: reason,
    },
    select: payoutColumns,
  });
}

export async function openPayoutCents(db: Database | Transaction, userId: string): Promise<bigint> {
  const sum = await db.payoutRequest.aggregate({
    _sum: { amountCents: true },
    where: { userId, status: { in: UNPAID_STATUSES } },
  });
  return sum._sum.amountCents ?? 0n;
}

export async function withdrawnSince(db: Database | Transaction, userId: string, since: Date) {
  const sum = await db.payoutRequest.aggregate({
    _sum: { amountCents: true },
    // A cancelled payout gave its money back: it no longer counts towards the monthly limit.
    where: { userId, createdAt: { gte: since }, status: { not: 'cancelled' } },
  });
  return sum._sum.amountCents ?? 0n;
}
