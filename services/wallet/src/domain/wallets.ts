import { AppError } from '@challenge/kit';
import { enqueueEvents, handleOnce, newEvent, type DomainEvent } from '@challenge/events';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import { findWalletBalances, insertWallet, walletExists } from '../data/wallets.ts';
import type { Limits } from '../config.ts';
import { openPayoutCents } from '../data/payouts.ts';
import { toInt } from './history.ts';
import { limitsView } from './limits.ts';

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
  if (await walletExists(tx, userId)) return;
  const { walletId } = await insertWallet(tx, userId);
  await enqueueEvents(tx, [
    newEvent('WalletCreated', { aggregateId: walletId, actorId, data: { walletId, userId } }),
  ]);
}

export async function getOwnWallet(db: Database, limits: Limits, userId: string) {
  const balances = await findWalletBalances(db, userId);
  if (!balances) throw new AppError('wallet_not_found');
  const [openPayouts, limitFigures] = await Promise.all([
    openPayoutCents(db, userId),
    limitsView(db, limits, userId),
  ]);
  return {
    availableAmount: toInt(balances.availableCents),
    freezeAmount: toInt(balances.frozenCents),
    totalAmount: toInt(balances.availableCents + balances.frozenCents),
    openPayoutAmount: toInt(openPayouts),
    currency: 'EUR' as const,
    limits: limitFigures,
  };
}
