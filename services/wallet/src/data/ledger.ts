import { LIST_DEPTH_MAX } from '@challenge/kit';
import type { AccountKind, TransferKind } from './generated/enums.ts';

export type { TransferKind };
import type { Database, Transaction } from './db.ts';

/** Owner of the platform's own accounts (provider clearing, payout clearing, fees). */
export const PLATFORM_OWNER = '00000000-0000-0000-0000-000000000000';

/** Creates a platform account on first use; ON CONFLICT because first uses race. */
export async function ensurePlatformAccount(tx: Transaction, kind: AccountKind): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO ledger_accounts (id, kind, user_id) VALUES (gen_random_uuid(), ${kind}::"AccountKind", ${PLATFORM_OWNER}::uuid)
    ON CONFLICT (user_id, kind) DO NOTHING`;
}

export interface LockedAccount {
  id: string;
  userId: string;
  kind: AccountKind;
  balance: bigint;
}

/** Locks the users' wallet rows in user id order (the first step of the one lock order). */
export async function lockWallets(tx: Transaction, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.$queryRaw`
    SELECT 1 FROM wallets WHERE user_id = ANY(${[...new Set(userIds)].sort()}::uuid[]) ORDER BY user_id FOR UPDATE`;
}

/**
 * Finds and locks the accounts named by (owner, kind) in one round trip, in id order, so that
 * two transfers over the same accounts wait for each other instead of deadlocking.
 */
export function lockAccountsOf(
  tx: Transaction,
  refs: { userId: string; kind: AccountKind }[],
): Promise<LockedAccount[]> {
  const users = refs.map((ref) => ref.userId);
  const kinds = refs.map((ref) => ref.kind);
  return tx.$queryRaw<LockedAccount[]>`
    SELECT a.id::text AS id, a.user_id::text AS "userId", a.kind::text AS kind, a.balance
    FROM ledger_accounts a
    JOIN unnest(${users}::uuid[], ${kinds}::text[]) AS wanted(user_id, kind)
      ON a.user_id = wanted.user_id AND a.kind::text = wanted.kind
    ORDER BY a.id FOR UPDATE OF a`;
}

/** Records the transfer unless its idempotency key is known; false when it already was. */
export async function insertTransferOnce(
  tx: Transaction,
  transfer: {
    idempotencyKey: string;
    kind: TransferKind;
    debitAccountId: string;
    creditAccountId: string;
    amountCents: bigint;
    challengeId: string | null;
    description: string | null;
  },
): Promise<boolean> {
  const inserted = await tx.$executeRaw`
    INSERT INTO ledger_transfers (id, idempotency_key, kind, debit_account_id, credit_account_id, amount_cents, challenge_id, description)
    VALUES (gen_random_uuid(), ${transfer.idempotencyKey}, ${transfer.kind}::"TransferKind", ${transfer.debitAccountId}::uuid,
            ${transfer.creditAccountId}::uuid, ${transfer.amountCents}, ${transfer.challengeId}::uuid, ${transfer.description})
    ON CONFLICT (idempotency_key) DO NOTHING`;
  return inserted === 1;
}

/** Moves the amount from one account to the other in one statement. */
export async function applyTransfer(
  tx: Transaction,
  debitId: string,
  creditId: string,
  amountCents: bigint,
): Promise<void> {
  await tx.$executeRaw`
    UPDATE ledger_accounts
    SET balance = balance + CASE WHEN id = ${creditId}::uuid THEN ${amountCents} ELSE -${amountCents}::bigint END
    WHERE id IN (${debitId}::uuid, ${creditId}::uuid)`;
}

/**
 * Bumps the wallet's version and reads what a balance report says, in one round trip (the
 * subqueries see this transaction's earlier changes).
 */
export async function bumpWalletReport(tx: Transaction, userId: string) {
  const [row] = await tx.$queryRaw<
    { version: bigint; availableCents: bigint; frozenCents: bigint; openPayoutCents: bigint }[]
  >`
    UPDATE wallets SET version = version + 1 WHERE user_id = ${userId}::uuid
    RETURNING version,
      COALESCE((SELECT balance FROM ledger_accounts WHERE user_id = ${userId}::uuid AND kind = 'user_available'), 0) AS "availableCents",
      COALESCE((SELECT balance FROM ledger_accounts WHERE user_id = ${userId}::uuid AND kind = 'user_frozen'), 0) AS "frozenCents",
      COALESCE((SELECT SUM(amount_cents) FROM payout_requests WHERE user_id = ${userId}::uuid AND status IN ('open', 'exported')), 0)::bigint AS "openPayoutCents"`;
  if (!row) throw new Error(`wallet of ${userId} is missing`);
  return row;
}

export async function userBalances(db: Database | Transaction, userId: string) {
  const accounts = await db.ledgerAccount.findMany({
    where: { userId, kind: { in: ['user_available', 'user_frozen'] } },
    select: { kind: true, balance: true },
  });
  const of = (kind: AccountKind) =>
    accounts.find((account) => account.kind === kind)?.balance ?? 0n;
  return { availableCents: of('user_available'), frozenCents: of('user_frozen') };
}

/** The transfers touching a user's accounts, newest first. */
export async function transfersOfUser(
  db: Database,
  userId: string,
  page: { skip: number; take: number },
) {
  const accounts = await db.ledgerAccount.findMany({
    where: { userId },
    select: { id: true, kind: true },
  });
  const ids = accounts.map((account) => account.id);
  const where = { OR: [{ debitAccountId: { in: ids } }, { creditAccountId: { in: ids } }] };
  const [rows, total] = await Promise.all([
    db.ledgerTransfer.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: page.skip,
      take: page.take,
      select: {
        id: true,
        kind: true,
        amountCents: true,
        challengeId: true,
        description: true,
        createdAt: true,
        debitAccountId: true,
        creditAccountId: true,
      },
    }),
    db.ledgerTransfer.count({ where, take: LIST_DEPTH_MAX }),
  ]);
  return { rows, total, accounts };
}

/** Figures for staff: every balance, user money, and the totals of money in and out. */
export async function ledgerTotals(db: Database) {
  const [all, users, topUps, payouts] = await Promise.all([
    db.ledgerAccount.aggregate({ _sum: { balance: true } }),
    db.ledgerAccount.aggregate({
      _sum: { balance: true },
      where: { kind: { in: ['user_available', 'user_frozen'] } },
    }),
    db.ledgerTransfer.aggregate({ _sum: { amountCents: true }, where: { kind: 'top_up' } }),
    db.ledgerTransfer.aggregate({
      _sum: { amountCents: true },
      where: { kind: 'payout_complete' },
    }),
  ]);
  return {
    totalBalance: all._sum.balance ?? 0n,
    walletSum: users._sum.balance ?? 0n,
    totalMoneyTopUps: topUps._sum.amountCents ?? 0n,
    totalMoneyPayouts: payouts._sum.amountCents ?? 0n,
  };
}
