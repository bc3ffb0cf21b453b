import type { Database, Transaction } from './db.ts';

export interface WalletBalances {
  walletId: string;
  userId: string;
  availableCents: bigint;
  frozenCents: bigint;
}

/** Creates the wallet and its two ledger accounts (available, frozen) at zero. */
export async function insertWallet(tx: Transaction, userId: string): Promise<{ walletId: string }> {
  const wallet = await tx.wallet.create({ data: { userId }, select: { id: true } });
  await tx.ledgerAccount.createMany({
    data: [
      { userId, kind: 'user_available' },
      { userId, kind: 'user_frozen' },
    ],
  });
  return { walletId: wallet.id };
}

export async function walletExists(tx: Transaction, userId: string): Promise<boolean> {
  return (await tx.wallet.count({ where: { userId } })) > 0;
}

export async function findWalletBalances(
  db: Database,
  userId: string,
): Promise<WalletBalances | null> {
  const wallet = await db.wallet.findUnique({ where: { userId }, select: { id: true } });
  if (!wallet) return null;
  const accounts = await db.ledgerAccount.findMany({
    where: { userId, kind: { in: ['user_available', 'user_frozen'] } },
    select: { kind: true, balance: true },
  });
  const balance = (kind: string) =>
    accounts.find((account) => account.kind === kind)?.balance ?? 0n;
  return {
    walletId: wallet.id,
    userId,
    availableCents: balance('user_available'),
    frozenCents: balance('user_frozen'),
  };
}

export function countWallets(db: Database, userId: string): Promise<number> {
  return db.wallet.count({ where: { userId } });
}
