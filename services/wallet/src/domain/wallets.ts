import { AppError } from '@challenge/kit';
import { randomUUID } from 'node:crypto';
import {
  enqueueEvents,
  newEvent,
  outboxRow,
  wakeOutboxRelays,
  type DomainEvent,
} from '@challenge/events';
import type { Database, Transaction } from '../data/db.ts';
import { findWalletOverview, insertWalletOnce, openWalletOnceForEvent } from '../data/wallets.ts';
import type { Limits } from '../config.ts';
import { toInt } from './history.ts';
import { limitsView, startOfMonth } from './limits.ts';

export const CONSUMER = 'wallet';

/**
 * Every registered user gets one wallet. Idempotent twice over: the event id is recorded with
 * the effect, and the wallet is unique per user, so a redelivery or a replay creates nothing.
 * One statement (`openWalletOnceForEvent`): every sign-up passes here, and the transaction of
 * steps (`handleOnce` + `ensureWallet`) took five round trips.
 */
export async function openWalletForNewUser(
  db: Database,
  event: DomainEvent<'UserRegistered'>,
): Promise<void> {
  const { userId } = event.data;
  const walletId = randomUUID();
  const created = newEvent('WalletCreated', {
    aggregateId: walletId,
    actorId: event.actorId,
    data: { walletId, userId },
  });
  const opened = await openWalletOnceForEvent(db, {
    consumer: CONSUMER,
    eventId: event.id,
    userId,
    walletId,
    createdEvent: outboxRow(created),
  });
  if (opened) wakeOutboxRelays();
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
