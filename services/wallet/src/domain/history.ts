import { AppError } from '@challenge/kit';
import { z } from 'zod';
import type { Database } from '../data/db.ts';
import { holdsOfChallenges } from '../data/escrow.ts';
import { ledgerTotals, transfersOfUser } from '../data/ledger.ts';

export const pageInput = z.object({
  page: z.number().int().min(1).default(1),
  itemsPerPage: z.number().int().min(1).max(100).default(20),
});

/** Cents as a GraphQL Int: refused rather than rounded beyond 2^31-1 cents. */
export function toInt(cents: bigint): number {
  if (cents > 2_147_483_647n || cents < -2_147_483_648n)
    throw new AppError('generic_error', 'Amount out of range.');
  return Number(cents);
}

/** The user's movements, each as signed changes of their available and frozen amounts. */
export async function walletHistory(
  db: Database,
  userId: string,
  page: z.output<typeof pageInput>,
) {
  const { rows, total, accounts } = await transfersOfUser(db, userId, {
    skip: (page.page - 1) * page.itemsPerPage,
    take: page.itemsPerPage,
  });
  const kindOf = new Map(accounts.map((account) => [account.id, account.kind]));
  const challengeIds = [
    ...new Set(rows.flatMap((row) => (row.challengeId ? [row.challengeId] : []))),
  ];
  const challenges = new Map(
    (await holdsOfChallenges(db, challengeIds)).map((hold) => [
      hold.challengeId,
      { id: hold.challengeId, slug: hold.slug, challengeName: hold.challengeName },
    ]),
  );
  const change = (row: (typeof rows)[number], kind: string) =>
    (kindOf.get(row.creditAccountId) === kind ? row.amountCents : 0n) -
    (kindOf.get(row.debitAccountId) === kind ? row.amountCents : 0n);
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      availableChange: toInt(change(row, 'user_available')),
      frozenChange: toInt(change(row, 'user_frozen')),
      challengeId: row.challengeId,
      challenge: (row.challengeId && challenges.get(row.challengeId)) || null,
      description: row.description,
      createdAt: row.createdAt.toISOString(),
    })),
    pagination: {
      currentPage: page.page,
      totalPages: Math.max(1, Math.ceil(total / page.itemsPerPage)),
      totalCount: total,
    },
  };
}

/** Staff figures; Float because sums of every wallet can pass the 32-bit Int range (exact below 2^53). */
export async function moneyTotals(db: Database) {
  const totals = await ledgerTotals(db);
  return {
    walletSum: Number(totals.walletSum),
    totalBalance: Number(totals.totalBalance),
    totalMoneyTopUps: Number(totals.totalMoneyTopUps),
    totalMoneyPayouts: Number(totals.totalMoneyPayouts),
  };
}
