import { AppError } from '@challenge/kit';
import { enqueueEvents, handleOnce, newEvent, type DomainEvent } from '@challenge/events';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import { findWalletOverview, insertWalletOnce } from '../data/wallets.ts';
import type { Limits } from '../config.ts';
import { toInt } from './history.ts';
import { limitsView, startOfMonth } from './limits.ts';

export const CONSUMER = 'wallet';

/**
 * Every registered user gets one wallet. Idempotent twice over: the event id is recorded with
 * the effect, and the wallet is unique per user, so a redelivery or a replay creates nothing.
 */
export async function openWalletForNewUser(
  db: Database,
  event: DomainEvent<'UserRegistered'>,
): Promise<void> {
  await handleOnce(transactionRunner(db), CONSUMER, event.id, (tx) =>
    ensureWallet(tx, event.data.userId, event.actorId),
  );
}

/**
 * Opens the user's wallet unless it exists: on UserRegistered, or earlier when money reaches a
 * user whose registration wallet has not heard of yet (the topics are not ordered together).
 */
export async function ensureWallet(
  tx: Transaction,
  userId: string,
  actorId: string | null,
): Promise<void> {
  const wallet = await insertWalletOnce(tx, userId);
  if (!wallet) return;
  const { walletId } = wallet;
  await enqueueEvents(tx, [
    newEvent('WalletCreated', { aggregateId: walletId, actorId, data: { walletId, userId } }),
  ]);
}

export async function getOwnWallet(db: Database, limits: Limits, userId: string, now = new Date()) {
  // The same statuses and month as the limit checks (limits.ts), in one statement.
  const wallet = await findWalletOverview(db, userId, startOfMonth(now));
  if (!wallet) throw new AppError('wallet_not_found');
  return {
    availableAmount: toInt(wallet.availableCents),
    freezeAmount: toInt(wallet.frozenCents),
    totalAmount: toInt(wallet.availableCents + wallet.frozenCents),
    openPayoutAmount: toInt(wallet.openPayoutCents),
    currency: 'EUR' as const,
    limits: limitsView(limits, wallet.depositedCents, wallet.withdrawnCents),
  };
}
