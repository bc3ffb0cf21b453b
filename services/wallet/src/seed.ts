import type { Database } from './data/db.ts';
import { countWallets } from './data/wallets.ts';

/** Read-side helpers for tests: how many wallets a user has (the answer must be 0 or 1). */
export function walletCount(db: Database, userId: string): Promise<number> {
  return countWallets(db, userId);
}
