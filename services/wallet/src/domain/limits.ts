import { AppError } from '@challenge/kit';
import type { Limits } from '../config.ts';
import type { Transaction } from '../data/db.ts';
import { depositedSince } from '../data/payments.ts';
import { withdrawnSince } from '../data/payouts.ts';
import { toInt } from './history.ts';

/** Limits count per calendar month in UTC (the first of the month, 00:00 UTC, starts a new one). */
export function startOfMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

const MONTHLY = {
  deposit: { used: depositedSince, limit: (limits: Limits) => limits.monthlyDepositLimitCents },
  withdrawal: {
    used: withdrawnSince,
    limit: (limits: Limits) => limits.monthlyWithdrawalLimitCents,
  },
} as const;

/**
 * Refuses a deposit or withdrawal that would take this month's total over its limit with
 * limit_exceeded_this_month. Call with the user's wallet locked, so that two requests at once
 * cannot both fit under it.
 */
export async function checkMonthlyLimit(
  tx: Transaction,
  limits: Limits,
  kind: keyof typeof MONTHLY,
  userId: string,
  amountCents: bigint,
  now = new Date(),
): Promise<void> {
  const used = await MONTHLY[kind].used(tx, userId, startOfMonth(now));
  if (used + amountCents > BigInt(MONTHLY[kind].limit(limits))) {
    throw new AppError('limit_exceeded_this_month');
  }
}

/** The limits as the wallet shows them, with what this month has used of each. */
export function limitsView(limits: Limits, depositedCents: bigint, withdrawnCents: bigint) {
  return {
    minimumPayout: limits.minimumPayoutCents,
    minimumTopUp: limits.minimumTopUpCents,
    monthlyDepositLimit: limits.monthlyDepositLimitCents,
    monthlyWithdrawalLimit: limits.monthlyWithdrawalLimitCents,
    depositedThisMonth: toInt(depositedCents),
    withdrawnThisMonth: toInt(withdrawnCents),
  };
}
