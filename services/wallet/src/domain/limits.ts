import { AppError } from '@challenge/kit';
import type { Limits } from '../config.ts';
import type { Database, Transaction } from '../data/db.ts';
import { depositedSince } from '../data/payments.ts';
import { withdrawnSince } from '../data/payouts.ts';
import { toInt } from './history.ts';

/** Limits count per calendar month in UTC (the first of the month, 00:00 UTC, starts a new one). */
export function startOfMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** Refuses a deposit that would take this month's deposits over the limit. Call with the wallet locked. */
export async function checkDepositLimit(
  tx: Transaction,
  limits: Limits,
  userId: string,
  amountCents: bigint,
  now = new Date(),
): Promise<void> {
  const used = await depositedSince(tx, userId, startOfMonth(now));
  if (used + amountCents > BigInt(limits.monthlyDepositLimitCents)) {
    throw new AppError('limit_exceeded_this_month');
  }
}

/** Refuses a payout that would take this month's withdrawals over the limit. Call with the wallet locked. */
export async function checkWithdrawalLimit(
  tx: Transaction,
  limits: Limits,
  userId: string,
  amountCents: bigint,
  now = new Date(),
): Promise<void> {
  const used = await withdrawnSince(tx, userId, startOfMonth(now));
  if (used + amountCents > BigInt(limits.monthlyWithdrawalLimitCents)) {
    throw new AppError('limit_exceeded_this_month');
  }
}

export async function limitsView(db: Database, limits: Limits, userId: string, now = new Date()) {
  const since = startOfMonth(now);
  const [deposited, withdrawn] = await Promise.all([
    depositedSince(db, userId, since),
    withdrawnSince(db, userId, since),
  ]);
  return {
    minimumPayout: limits.minimumPayoutCents,
    minimumTopUp: limits.minimumTopUpCents,
    monthlyDepositLimit: limits.monthlyDepositLimitCents,
    monthlyWithdrawalLimit: limits.monthlyWithdrawalLimitCents,
    depositedThisMonth: toInt(deposited),
    withdrawnThisMonth: toInt(withdrawn),
  };
}
