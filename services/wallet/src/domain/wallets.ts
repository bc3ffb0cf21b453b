import { AppError } from '@challenge/kit';
import { enqueueEvents, handleOnce, newEvent, type DomainEvent } from '@challenge/events';
import { transactionRunner, type Database } from '../data/db.ts';
import { findWalletBalances, insertWallet, walletExists } from '../data/wallets.ts';
import { toInt } from './history.ts';

export const CONSUMER = 'wallet';

/**
 * Every registered user gets one wallet. Idempotent twice over: the event id is recorded with
 * the effect, and the wallet is unique per user, so a redelivery or a replay creates nothing.
 */
export async function openWalletForNewUser(
  db: Database,
  event: DomainEvent<'UserRegistered'>,
): Promise<void> {
  await handleOnce(transactionRunner(db), CONSUMER, event.id, async (tx) => {
    if (await walletExists(tx, event.data.userId)) return;
    const { walletId } = await insertWallet(tx, event.data.userId);
    await enqueueEvents(tx, [
      newEvent('WalletCreated', {
        aggregateId: walletId,
        actorId: event.actorId,
        data: { walletId, userId: event.data.userId },
      }),
    ]);
  });
}

export interface WalletView {
  availableAmount: number;
  freezeAmount: number;
  totalAmount: number;
  currency: 'EUR';
}

export async function getOwnWallet(db: Database, userId: string): Promise<WalletView> {
  const balances = await findWalletBalances(db, userId);
  if (!balances) throw new AppError('wallet_not_found');
  return {
    availableAmount: toInt(balances.availableCents),
    freezeAmount: toInt(balances.frozenCents),
    totalAmount: toInt(balances.availableCents + balances.frozenCents),
    currency: 'EUR',
  };
}
