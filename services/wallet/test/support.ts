import { expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  TEST_INTERNAL_API_TOKEN,
  startTestService,
  testWalletConfig,
  type TestService,
} from '@challenge/testing';
import { buildApp, type WalletApp } from '../src/app.ts';
import type { WalletConfig } from '../src/config.ts';
import { transactionRunner, type Database } from '../src/data/db.ts';
import { insertWalletOnce } from '../src/data/wallets.ts';
import { transfer } from '../src/domain/ledger.ts';
import { PAYMENT_WEBHOOK_PATH } from '../src/http/routes.ts';

export const INTERNAL_TOKEN = TEST_INTERNAL_API_TOKEN;

/** Wallet for real on a fresh database, Kafka topics under `topicPrefix`. */
export async function startWallet(
  topicPrefix: string,
  overrides: Partial<WalletConfig> = {},
): Promise<TestService<WalletApp> & { config: WalletConfig }> {
  let ownUrl = '';
  let config!: WalletConfig;
  const service = await startTestService(
    'wallet',
    (runtime, databaseUrl) => {
      const webhook = () => new URL(PAYMENT_WEBHOOK_PATH, ownUrl).href;
      config = { ...testWalletConfig(databaseUrl, webhook), ...overrides };
      return buildApp(runtime, config);
    },
    { topicPrefix },
  );
  ownUrl = service.url;
  return { ...service, config };
}

/** A user with a wallet holding `cents` (a top-up straight into the ledger). */
export async function userWithBalance(app: WalletApp, cents: number): Promise<string> {
  const userId = randomUUID();
  await transactionRunner(app.db)((tx) => insertWalletOnce(tx, userId));
  if (cents > 0) {
    await transfer(app.db, {
      idempotencyKey: `seed-top-up:${userId}`,
      kind: 'top_up',
      from: { platform: 'provider_clearing' },
      to: { user: userId, kind: 'user_available' },
      amountCents: BigInt(cents),
    });
  }
  return userId;
}

export async function balances(app: WalletApp, userId: string) {
  const accounts = await app.db.ledgerAccount.findMany({ where: { userId } });
  const of = (kind: string) => Number(accounts.find((a) => a.kind === kind)?.balance ?? 0n);
  return { available: of('user_available'), frozen: of('user_frozen') };
}

/**
 * The ledger's own invariants: every balance equals its credits minus its debits, all balances
 * sum to zero, no user account is negative.
 */
export async function expectLedgerBalanced(db: Database): Promise<void> {
  const [row] = await db.$queryRaw<{ mismatches: bigint; total: bigint; negatives: bigint }[]>`
    WITH movement AS (
      SELECT a.id, a.balance,
        COALESCE((SELECT SUM(amount_cents) FROM ledger_transfers WHERE credit_account_id = a.id), 0)
        - COALESCE((SELECT SUM(amount_cents) FROM ledger_transfers WHERE debit_account_id = a.id), 0) AS net
      FROM ledger_accounts a)
    SELECT (SELECT COUNT(*) FROM movement WHERE balance <> net) AS mismatches,
           COALESCE((SELECT SUM(balance) FROM ledger_accounts), 0)::bigint AS total,
           (SELECT COUNT(*) FROM ledger_accounts WHERE kind IN ('user_available','user_frozen') AND balance < 0) AS negatives`;
  expect(row).toEqual({ mismatches: 0n, total: 0n, negatives: 0n });
}
