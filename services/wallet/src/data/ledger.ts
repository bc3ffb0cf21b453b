import type { AccountKind, TransferKind } from './generated/enums.ts';

export type { TransferKind };
import type { Database, Transaction } from './db.ts';

/** Owner of the platform's own accounts (provider clearing, payout clearing, fees). */
export const PLATFORM_OWNER = '00000000-0000-0000-0000-000000000000';

export async function accountId(
  tx: Transaction,
  userId: string,
  kind: AccountKind,
): Promise<string | null> {
  const account = await tx.ledgerAccount.findUnique({
    where: { userId_kind: { userId, kind } },
    select: { id: true },
  });
  return account?.id ?? null;
}

/** Created on first use; ON CONFLICT because concurrent first uses race (Prisma's upsert is not atomic). */
export async function platformAccountId(tx: Transaction, kind: AccountKind): Promise<string> {
  await tx.$executeRaw`
    INSERT INTO ledger_accounts (id, kind, user_id) VALUES (gen_random_uuid(), ${kind}::"AccountKind", ${PLATFORM_OWNER}::uuid)
    ON CONFLICT (user_id, kind) DO NOTHING`;
  const id = await accountId(tx, PLATFORM_OWNER, kind);
  if (!id) throw new Error(`platform account ${kind} is missing`);
  return id;
}

export interface LockedAccount {
  id: string;
  userId: string;
  kind: AccountKind;
  balance: bigint;
}

/** Locks the accounts in id order, so that two transfers over the same pair never deadlock. */
export function lockAccounts(tx: Transaction, ids: string[]): Promise<LockedAccount[]> {
  return tx.$queryRaw<LockedAccount[]>`
    SELECT id::text AS id, user_id::text AS "userId", kind::text AS kind, balance
    FROM ledger_accounts WHERE id = ANY(${[...ids].sort()}::uuid[]) ORDER BY id FOR UPDATE`;
}

/** Locks the users' wallet rows in user id order (the first step of the one lock order). */
export async function lockWallets(tx: Transaction, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.$queryRaw`
    SELECT 1 FROM wallets WHERE user_id = ANY(${[...new Set(userIds)].sort()}::uuid[]) ORDER BY user_id FOR UPDATE`;
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

export async function addToBalance(tx: Transaction, id: string, deltaCents: bigint): Promise<void> {
  await tx.$executeRaw`UPDATE ledger_accounts SET balance = balance + ${deltaCents} WHERE id = ${id}::uuid`;
}

export async function bumpWalletVersion(tx: Transaction, userId: string): Promise<bigint> {
  const wallet = await tx.wallet.update({
    where: { userId },
    data: { version: { increment: 1 } },
    select: { version: true },
  });
  return wallet.version;
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
    db.ledgerTransfer.count({ where }),
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
