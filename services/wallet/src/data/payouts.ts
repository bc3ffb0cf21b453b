import type { Database, Transaction } from './db.ts';
import type { PayoutStatus } from './generated/enums.ts';

export type { PayoutStatus };

export interface PaymentProfileRow {
  name: string;
  iban: string;
  bic: string;
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
  heldForReview: true,
  releasedAt: true,
} as const;

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
    db.payoutRequest.count({ where }),
  ]);
  return { rows, total };
}

/** Open payouts for a SEPA file, oldest first; those already in a file only when asked. */
export function openPayoutsToExport(tx: Transaction, includeExported: boolean) {
  return tx.payoutRequest.findMany({
    where: {
      status: 'open',
      ...(includeExported ? {} : { exportBatch: null }),
      // Held after an IBAN change until staff release it.
      OR: [{ heldForReview: false }, { releasedAt: { not: null } }],
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: payoutColumns,
  });
}

export async function markExported(tx: Transaction, ids: string[], batch: string): Promise<void> {
  await tx.payoutRequest.updateMany({
    where: { id: { in: ids } },
    data: { exportBatch: batch, exportedAt: new Date() },
  });
}

export async function openPayoutCents(db: Database | Transaction, userId: string): Promise<bigint> {
  const sum = await db.payoutRequest.aggregate({
    _sum: { amountCents: true },
    where: { userId, status: 'open' },
  });
  return sum._sum.amountCents ?? 0n;
}

export async function withdrawnSince(db: Database | Transaction, userId: string, since: Date) {
  const sum = await db.payoutRequest.aggregate({
    _sum: { amountCents: true },
    where: { userId, createdAt: { gte: since } },
  });
  return sum._sum.amountCents ?? 0n;
}
