import type { outboxRow } from '@challenge/events';
import type { Database, Transaction } from './db.ts';
import { Prisma } from './generated/client.ts';

/** What a wallet's owner sees of it: balances and this month's movements, in cents. */
export interface WalletOverview {
  walletId: string;
  availableCents: bigint;
  frozenCents: bigint;
  /** Payouts asked for and not paid yet (open or exported). */
  openPayoutCents: bigint;
  /** Top-ups (open or paid) and payouts (any but cancelled) since `since`, for the limits. */
  depositedCents: bigint;
  withdrawnCents: bigint;
}

/** The CTE that opens the two ledger accounts (available, frozen), at zero, of CTE `wallet`'s row. */
const OPEN_ACCOUNTS = Prisma.sql`accounts AS (
  INSERT INTO ledger_accounts (id, kind, user_id)
  SELECT gen_random_uuid(), kind::"AccountKind", wallet.user_id
    FROM wallet, unnest(ARRAY['user_available', 'user_frozen']) AS kind
)`;

/**
 * Creates the wallet and its two ledger accounts (available, frozen) at zero in one statement,
 * unless the user has a wallet: null then. The unique user id decides between two concurrent
 * calls (the second waits for the first's commit and inserts nothing).
 */
export async function insertWalletOnce(
  tx: Transaction,
  userId: string,
): Promise<{ walletId: string } | null> {
  const [wallet] = await tx.$queryRaw<{ walletId: string }[]>`
    WITH wallet AS (
      INSERT INTO wallets (id, user_id) VALUES (gen_random_uuid(), ${userId}::uuid)
      ON CONFLICT (user_id) DO NOTHING
      RETURNING id, user_id
    ), ${OPEN_ACCOUNTS}
    SELECT id::text AS "walletId" FROM wallet`;
  return wallet ?? null;
}

/**
 * A consumer's `handleOnce` of `insertWalletOnce` with the wallet's WalletCreated outbox row, in one
 * statement (autocommit, no interactive transaction): one round trip where the transaction took
 * five. Data-modifying CTEs run once each and commit together, so the event's mark, the wallet,
 * its accounts and its announcement are all there or none is. A redelivered event finds its mark
 * and writes nothing; a user whose wallet opened earlier (money that arrived before the
 * registration) gets no second one and no second WalletCreated. Concurrent twins wait on the
 * unique keys (processed_events, wallets.user_id) and then do nothing. True when it opened it.
 */
export async function openWalletOnceForEvent(
  db: Database,
  input: {
    consumer: string;
    eventId: string;
    userId: string;
    walletId: string;
    createdEvent: ReturnType<typeof outboxRow>;
  },
): Promise<boolean> {
  const event = input.createdEvent;
  const rows = await db.$queryRaw<{ id: string }[]>`
    WITH processed AS (
      INSERT INTO processed_events (consumer, event_id) VALUES (${input.consumer}, ${input.eventId}::uuid)
      ON CONFLICT DO NOTHING
      RETURNING event_id
    ), wallet AS (
      INSERT INTO wallets (id, user_id)
      SELECT ${input.walletId}::uuid, ${input.userId}::uuid FROM processed
      ON CONFLICT (user_id) DO NOTHING
      RETURNING id, user_id
    ), ${OPEN_ACCOUNTS}, announced AS (
      INSERT INTO outbox_events (id, topic, key, type, payload, trace_context)
      SELECT ${event.id}::uuid, ${event.topic}, ${event.key}, ${event.type}, ${event.payload}::jsonb,
             ${event.traceContext}::jsonb
        FROM wallet
    )
    SELECT id::text FROM wallet`;
  return rows.length > 0;
}

/**
 * The wallet's balances, open payouts and the month's deposits and withdrawals in one statement
 * (docs/adr/0088): five queries before, two of them one after the other, each holding a pooled
 * connection. Each part reads its own index: ledger_accounts (user_id, kind), payout_requests
 * and top_up_payments (user_id, created_at). Null when the user has no wallet.
 */
export async function findWalletOverview(
  db: Database,
  userId: string,
  since: Date,
): Promise<WalletOverview | null> {
  const rows = await db.$queryRaw<
    {
      wallet_id: string;
      available: bigint;
      frozen: bigint;
      open_payouts: bigint;
      deposited: bigint;
      withdrawn: bigint;
    }[]
  >`
    SELECT w.id::text AS wallet_id,
           COALESCE((SELECT balance FROM ledger_accounts
                      WHERE user_id = w.user_id AND kind = 'user_available'), 0)::bigint AS available,
           COALESCE((SELECT balance FROM ledger_accounts
                      WHERE user_id = w.user_id AND kind = 'user_frozen'), 0)::bigint AS frozen,
           (SELECT COALESCE(sum(amount_cents), 0) FROM payout_requests
             WHERE user_id = w.user_id AND status IN ('open', 'exported'))::bigint AS open_payouts,
           (SELECT COALESCE(sum(amount_cents), 0) FROM top_up_payments
             WHERE user_id = w.user_id AND created_at >= ${since}
               AND status IN ('open', 'paid'))::bigint AS deposited,
           (SELECT COALESCE(sum(amount_cents), 0) FROM payout_requests
             WHERE user_id = w.user_id AND created_at >= ${since}
               AND status <> 'cancelled')::bigint AS withdrawn
      FROM wallets w
     WHERE w.user_id = ${userId}::uuid`;
  const row = rows[0];
  if (!row) return null;
  return {
    walletId: row.wallet_id,
    availableCents: row.available,
    frozenCents: row.frozen,
    openPayoutCents: row.open_payouts,
    depositedCents: row.deposited,
    withdrawnCents: row.withdrawn,
  };
}

export function countWallets(db: Database, userId: string): Promise<number> {
  return db.wallet.count({ where: { userId } });
}
