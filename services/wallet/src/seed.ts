import { transactionRunner, type Database } from './data/db.ts';
import { countWallets } from './data/wallets.ts';
import { holdReward } from './domain/escrow.ts';
import { transfer } from './domain/ledger.ts';
import { ensureWallet } from './domain/wallets.ts';

/** Read-side helpers for tests: how many wallets a user has (the answer must be 0 or 1). */
export function walletCount(db: Database, userId: string): Promise<number> {
  return countWallets(db, userId);
}

/** For tests and benchmarks: a wallet holding `cents`, paid in from the provider clearing account. */
export async function seedWallet(db: Database, userId: string, cents: number): Promise<void> {
  await transactionRunner(db)((tx) => ensureWallet(tx, userId, null));
  if (cents <= 0) return;
  await transfer(db, {
    idempotencyKey: `seed:${userId}`,
    kind: 'top_up',
    from: { platform: 'provider_clearing' },
    to: { user: userId, kind: 'user_available' },
    amountCents: BigInt(cents),
  });
}

/**
 * For tests: a user's reward held for a challenge wallet never heard of (no challenge event), the
 * stray hold the reconciliation reports as challenge_missing and staff may resolve.
 */
export async function seedStrayHold(db: Database, challengeId: string, userId: string) {
  await seedWallet(db, userId, 100);
  await holdReward(db, {
    challengeId,
    ownerId: userId,
    amountCents: 100,
    slug: `stray-${challengeId.slice(0, 8)}`,
    challengeName: 'A stray hold',
  });
}
