import { enqueueEvents, newEvent } from '@challenge/events';
import { AppError } from '@challenge/kit';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import {
  accountId,
  addToBalance,
  bumpWalletVersion,
  insertTransferOnce,
  lockAccounts,
  lockWallets,
  platformAccountId,
  userBalances,
  PLATFORM_OWNER,
} from '../data/ledger.ts';
import type { TransferKind } from '../data/ledger.ts';
import { openPayoutCents } from '../data/payouts.ts';

/**
 * The double-entry ledger: every movement is one transfer of a positive number of cents from one
 * account to another, so the sum of all balances stays zero. User accounts never go negative
 * (checked here for a clear error, and by the database whatever happens).
 */
export type AccountRef =
  | { user: string; kind: 'user_available' | 'user_frozen' }
  | { platform: 'provider_clearing' | 'payout_clearing' | 'fees' };

export interface TransferRequest {
  /** The same key again moves nothing and reports applied: false. */
  idempotencyKey: string;
  kind: TransferKind;
  from: AccountRef;
  to: AccountRef;
  amountCents: bigint;
  challengeId?: string | null;
  description?: string | null;
}

async function resolve(tx: Transaction, ref: AccountRef): Promise<string> {
  if ('platform' in ref) return platformAccountId(tx, ref.platform);
  const id = await accountId(tx, ref.user, ref.kind);
  if (!id) throw new AppError('wallet_not_found');
  return id;
}

/** One transfer inside the caller's transaction; announces the new balances of the users moved. */
export async function transferIn(
  tx: Transaction,
  request: TransferRequest,
): Promise<{ applied: boolean }> {
  if (request.amountCents <= 0n)
    throw new AppError('invalid_input', 'The amount must be positive.');
  const debitId = await resolve(tx, request.from);
  const creditId = await resolve(tx, request.to);
  // Wallets, then accounts, each in id order: the one lock order of every money path, so that
  // concurrent transfers wait for each other instead of deadlocking.
  await lockWallets(
    tx,
    [request.from, request.to].flatMap((ref) => ('user' in ref ? [ref.user] : [])),
  );
  const accounts = await lockAccounts(tx, [debitId, creditId]);
  const debit = accounts.find((account) => account.id === debitId)!;
  const credit = accounts.find((account) => account.id === creditId)!;

  const fresh = await insertTransferOnce(tx, {
    idempotencyKey: request.idempotencyKey,
    kind: request.kind,
    debitAccountId: debitId,
    creditAccountId: creditId,
    amountCents: request.amountCents,
    challengeId: request.challengeId ?? null,
    description: request.description ?? null,
  });
  if (!fresh) return { applied: false };
  if (debit.userId !== PLATFORM_OWNER && debit.balance < request.amountCents) {
    throw new AppError('insufficient_funds');
  }
  await addToBalance(tx, debitId, -request.amountCents);
  await addToBalance(tx, creditId, request.amountCents);

  const users = [...new Set([debit.userId, credit.userId])].filter(
    (userId) => userId !== PLATFORM_OWNER,
  );
  for (const userId of users) {
    const version = await bumpWalletVersion(tx, userId);
    const balances = await userBalances(tx, userId);
    await enqueueEvents(tx, [
      newEvent('WalletBalanceChanged', {
        aggregateId: userId,
        actorId: null,
        data: {
          userId,
          availableCents: Number(balances.availableCents),
          frozenCents: Number(balances.frozenCents),
          openPayoutCents: Number(await openPayoutCents(tx, userId)),
          version: Number(version),
        },
      }),
    ]);
  }
  return { applied: true };
}

// Prisma reports a deadlock or serialization failure as P2034 ("write conflict or a deadlock").
const RETRYABLE = /deadlock detected|could not serialize|write conflict|40P01|40001|P2034/;

/** Runs the work again (a few times) when the database aborted it for a deadlock or a conflict. */
export async function retryOnConflict<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const { message, code } = error as { message?: string; code?: string };
      if (attempt >= 5 || !RETRYABLE.test(`${code ?? ''} ${message ?? ''}`)) throw error;
    }
  }
}

/** One transfer in its own transaction, retried when the database asks for it. */
export function transfer(db: Database, request: TransferRequest): Promise<{ applied: boolean }> {
  return retryOnConflict(() => transactionRunner(db)((tx) => transferIn(tx, request)));
}
