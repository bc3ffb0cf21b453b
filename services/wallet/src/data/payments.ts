import type { Database, Transaction } from './db.ts';
import type { PaymentStatus } from './generated/enums.ts';

export type { PaymentStatus };

const topUpColumns = {
  id: true,
  userId: true,
  amountCents: true,
  provider: true,
  providerPaymentId: true,
  status: true,
  originUrl: true,
  refundedCents: true,
  chargedBackCents: true,
  unrecoveredCents: true,
  createdAt: true,
  paidAt: true,
  checkoutUrl: true,
} as const;

export type TopUpRow = NonNullable<Awaited<ReturnType<typeof findTopUp>>>;

/** Serialises a user's money-limit checks: the wallet row is the user's lock. */
export async function lockWallet(tx: Transaction, userId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<
    unknown[]
  >`SELECT 1 FROM wallets WHERE user_id = ${userId}::uuid FOR UPDATE`;
  return rows.length > 0;
}

export function insertTopUp(
  tx: Transaction,
  topUp: {
    userId: string;
    amountCents: bigint;
    provider: string;
    originUrl: string;
    requestKey: string | null;
  },
) {
  return tx.topUpPayment.create({ data: topUp, select: topUpColumns });
}

export function findTopUpByRequestKey(tx: Transaction, requestKey: string) {
  return tx.topUpPayment.findUnique({ where: { requestKey }, select: topUpColumns });
}

export function findTopUp(db: Database | Transaction, id: string) {
  return db.topUpPayment.findUnique({ where: { id }, select: topUpColumns });
}

/** Whether a top-up of ours has this provider id (no lock: a webhook's first look). */
export async function topUpExistsForProviderId(db: Database, providerPaymentId: string) {
  return (await db.topUpPayment.count({ where: { providerPaymentId } })) > 0;
}

/**
 * Provider ids of top-ups still open that were started between `since` and `before`, oldest
 * first: the reconciliation asks the provider about them (their webhooks may all have been lost).
 */
export async function openTopUpsBetween(
  db: Database,
  since: Date,
  before: Date,
  limit: number,
): Promise<string[]> {
  const rows = await db.topUpPayment.findMany({
    where: {
      status: 'open',
      providerPaymentId: { not: null },
      createdAt: { gte: since, lt: before },
    },
    orderBy: { createdAt: 'asc' },
    take: limit,
    select: { providerPaymentId: true },
  });
  return rows.map((row) => row.providerPaymentId!);
}

/** What wallet recorded as taken back from each of these provider payments (paid top-ups only). */
export async function recordedMoneyBack(
  db: Database,
  providerPaymentIds: string[],
): Promise<Map<string, { refundedCents: bigint; chargedBackCents: bigint }>> {
  const rows = await db.topUpPayment.findMany({
    where: { providerPaymentId: { in: providerPaymentIds }, status: 'paid' },
    select: { providerPaymentId: true, refundedCents: true, chargedBackCents: true },
  });
  return new Map(rows.map(({ providerPaymentId, ...recorded }) => [providerPaymentId!, recorded]));
}

/** The top-up, locked until the transaction ends, so that two webhooks apply one after the other. */
export async function lockTopUpByProviderId(tx: Transaction, providerPaymentId: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM top_up_payments WHERE provider_payment_id = ${providerPaymentId} FOR UPDATE`;
  return rows[0] ? findTopUp(tx, rows[0].id) : null;
}

export function updateTopUp(
  db: Database | Transaction,
  id: string,
  data: Partial<{
    providerPaymentId: string;
    checkoutUrl: string | null;
    status: PaymentStatus;
    paidAt: Date;
    refundedCents: bigint;
    chargedBackCents: bigint;
    unrecoveredCents: bigint;
  }>,
) {
  return db.topUpPayment.update({ where: { id }, data, select: topUpColumns });
}

/** Cents of top-ups started or paid since `since` (open ones count: they may still be paid). */
export async function depositedSince(db: Database | Transaction, userId: string, since: Date) {
  const sum = await db.topUpPayment.aggregate({
    _sum: { amountCents: true },
    where: { userId, createdAt: { gte: since }, status: { in: ['open', 'paid'] } },
  });
  return sum._sum.amountCents ?? 0n;
}
