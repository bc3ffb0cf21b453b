import { randomUUID } from 'node:crypto';
import { startTestService, stack, type TestService } from '@challenge/testing';
import { buildApp, type WalletApp } from '../src/app.ts';
import type { WalletConfig } from '../src/config.ts';
import { transactionRunner } from '../src/data/db.ts';
import { insertWallet } from '../src/data/wallets.ts';
import { transfer } from '../src/domain/ledger.ts';
import { PAYMENT_WEBHOOK_PATH } from '../src/http/routes.ts';

export const INTERNAL_TOKEN = 'internal-test-token-internal-test-token-0000';
export const PUBLIC_ORIGIN = 'https://challenge.test';

/** Wallet's settings for tests: the local payment sandbox, small limits, webhooks to itself. */
export function testWalletConfig(
  databaseUrl: string,
  overrides: Partial<WalletConfig> = {},
): WalletConfig & { setOwnUrl(graphqlUrl: string): void } {
  let ownUrl = '';
  return {
    databaseUrl,
    internalApiToken: INTERNAL_TOKEN,
    publicOrigin: PUBLIC_ORIGIN,
    paymentWebhookUrl: () => new URL(PAYMENT_WEBHOOK_PATH, ownUrl).href,
    mollie: {
      apiKey: stack.paymentSandbox.apiKey,
      apiEndpoint: stack.paymentSandbox.apiUrl,
    },
    limits: {
      minimumTopUpCents: 500,
      monthlyDepositLimitCents: 100_000,
      monthlyWithdrawalLimitCents: 50_000,
      minimumPayoutCents: 1_000,
    },
    sepaDebtor: { name: 'Challenge Platform B.V.', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A' },
    // The tests run the reconciliation themselves, with no grace period.
    reconciliation: { intervalMs: 3_600_000, graceMs: 0 },
    ...overrides,
    setOwnUrl(graphqlUrl) {
      ownUrl = graphqlUrl;
    },
  };
}

/** Wallet for real on a fresh database, Kafka topics under `topicPrefix`. */
export async function startWallet(
  topicPrefix: string,
  overrides: Partial<WalletConfig> = {},
): Promise<TestService<WalletApp> & { config: WalletConfig }> {
  let config!: ReturnType<typeof testWalletConfig>;
  const service = await startTestService(
    'wallet',
    (runtime, databaseUrl) => {
      config = testWalletConfig(databaseUrl, overrides);
      return buildApp(runtime, config);
    },
    { topicPrefix },
  );
  config.setOwnUrl(service.url);
  return { ...service, config };
}

/** A user with a wallet holding `cents` (a top-up straight into the ledger). */
export async function userWithBalance(app: WalletApp, cents: number): Promise<string> {
  const userId = randomUUID();
  await transactionRunner(app.db)((tx) => insertWallet(tx, userId));
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
