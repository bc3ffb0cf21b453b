import { AppError, pageWindow, paginationOf, type PageRequest } from '@challenge/kit';
import type { Database } from '../data/db.ts';
import { holdsOfChallenges } from '../data/escrow.ts';
import { ledgerTotals, transfersOfUser } from '../data/ledger.ts';

/** Cents as a GraphQL Int: refused rather than rounded beyond 2^31-1 cents. */
export function toInt(cents: bigint): number {
  if (cents > 2_147_483_647n || cents < -2_147_483_648n)
    throw new AppError('generic_error', 'Amount out of range.');
  return Number(cents);
}

/** The user's movements, each as signed changes of their available and frozen amounts. */
export async function walletHistory(db: Database, userId: string, page: PageRequest) {
  const { rows, total, accounts } = await transfersOfUser(db, userId, pageWindow(page));
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
    pagination: paginationOf(page, total),
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
