import { enqueueEvents, newEvent } from '@challenge/events';
import { AppError } from '@challenge/kit';
import { transactionRunner, type Database, type Transaction } from '../data/db.ts';
import {
  applyTransfer,
  bumpWalletReport,
  ensurePlatformAccount,
  insertTransferOnce,
  lockAccountsOf,
  lockWallets,
  PLATFORM_OWNER,
} from '../data/ledger.ts';
import type { TransferKind } from '../data/ledger.ts';

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

const owner = (ref: AccountRef) => ('platform' in ref ? PLATFORM_OWNER : ref.user);
const kindOf = (ref: AccountRef) => ('platform' in ref ? ref.platform : ref.kind);

/** One transfer inside the caller's transaction; announces the new balances of the users moved. */
export async function transferIn(
  tx: Transaction,
  request: TransferRequest,
): Promise<{ applied: boolean }> {
  if (request.amountCents <= 0n)
    throw new AppError('invalid_input', 'The amount must be positive.');
  const refs = [request.from, request.to];
  for (const ref of refs) if ('platform' in ref) await ensurePlatformAccount(tx, ref.platform);
  // Wallets, then accounts, each in id order: the one lock order of every money path, so that
  // concurrent transfers wait for each other instead of deadlocking.
  const users = refs.flatMap((ref) => ('user' in ref ? [ref.user] : []));
  await lockWallets(tx, users);
  const accounts = await lockAccountsOf(
    tx,
    refs.map((ref) => ({ userId: owner(ref), kind: kindOf(ref) })),
  );
  const find = (ref: AccountRef) =>
    accounts.find((account) => account.userId === owner(ref) && account.kind === kindOf(ref));
  const debit = find(request.from);
  const credit = find(request.to);
  if (!debit || !credit) throw new AppError('wallet_not_found');
  if (debit.id === credit.id) throw new AppError('invalid_input', 'A transfer needs two accounts.');

  const fresh = await insertTransferOnce(tx, {
    idempotencyKey: request.idempotencyKey,
    kind: request.kind,
    debitAccountId: debit.id,
    creditAccountId: credit.id,
    amountCents: request.amountCents,
    challengeId: request.challengeId ?? null,
    description: request.description ?? null,
  });
  if (!fresh) return { applied: false };
  if (debit.userId !== PLATFORM_OWNER && debit.balance < request.amountCents) {
    throw new AppError('insufficient_funds');
  }
  await applyTransfer(tx, debit.id, credit.id, request.amountCents);

  const events = [];
  for (const userId of [...new Set(users)]) {
    const report = await bumpWalletReport(tx, userId);
    events.push(
      newEvent('WalletBalanceChanged', {
        aggregateId: userId,
        actorId: null,
        data: {
          userId,
          availableCents: Number(report.availableCents),
          frozenCents: Number(report.frozenCents),
          openPayoutCents: Number(report.openPayoutCents),
          version: Number(report.version),
        },
      }),
    );
  }
  await enqueueEvents(tx, events);
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
