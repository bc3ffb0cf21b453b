import { readFileSync } from 'node:fs';
import { durationMs, internalApiEnv, loadEnv, subgraphEnv } from '@challenge/kit';
import { z } from 'zod';
import type { WalletConfig } from './config.ts';

const cents = z.coerce.number().int().positive();

/** The one place wallet reads its environment. Limits are cents; defaults in the README. */
export const envSchema = subgraphEnv
  .extend({
    ...internalApiEnv.shape,
    /** The site's origin: top-ups return to a path of it. */
    PUBLIC_ORIGIN: z.url(),
    /** Where the payment provider posts its webhooks (default: the gateway's /api/payments/webhook). */
    PAYMENT_WEBHOOK_URL: z.url().optional(),
    /** A Mollie API key (test_ or live_); the local sandbox takes its own test key. */
    MOLLIE_API_KEY: z.string().regex(/^(test|live)_\w{20,}$/, 'must be a Mollie API key'),
    /** Mollie's API; the local stack points it at the payment sandbox. */
    MOLLIE_API_ENDPOINT: z.url().default('https://api.mollie.com:443/v2/'),
    /** A PEM file of a CA to trust for that API besides Mollie's own (the sandbox's certificate). */
    MOLLIE_EXTRA_CA_FILE: z.string().min(1).optional(),
    TOP_UP_MIN_CENTS: cents.default(500),
    MONTHLY_DEPOSIT_LIMIT_CENTS: cents.default(100_000),
    MONTHLY_WITHDRAWAL_LIMIT_CENTS: cents.default(100_000),
    PAYOUT_MIN_CENTS: cents.default(1_000),
    /** The platform's own bank account, the debtor of the SEPA payout files. */
    SEPA_DEBTOR_NAME: z.string().min(1).max(70),
    SEPA_DEBTOR_IBAN: z.string().min(15),
    SEPA_DEBTOR_BIC: z.string().min(8),
    /** How often the escrow reconciliation runs, and how old a mismatch must be to count. */
    RECONCILIATION_INTERVAL_MS: durationMs().default(10 * 60_000),
    RECONCILIATION_GRACE_MS: durationMs(0).default(15 * 60_000),
  })
  .refine((env) => env.NODE_ENV !== 'production' || env.MOLLIE_API_KEY.startsWith('live_'), {
    // A test key in production would take "payments" that are no money (ADR 0017).
    message: 'must be a live_ key in production',
    path: ['MOLLIE_API_KEY'],
  });
export type WalletEnv = z.output<typeof envSchema>;

export const readEnv = (): WalletEnv => loadEnv(envSchema, process.env);

export function walletConfig(env: WalletEnv): WalletConfig {
  return {
    databaseUrl: env.DATABASE_URL,
    internalApiToken: env.INTERNAL_API_TOKEN,
    publicOrigin: env.PUBLIC_ORIGIN,
    paymentWebhookUrl: () =>
      env.PAYMENT_WEBHOOK_URL ?? new URL('/api/payments/webhook', env.PUBLIC_ORIGIN).href,
    requireLivePayments: env.NODE_ENV === 'production',
    mollie: {
      apiKey: env.MOLLIE_API_KEY,
      apiEndpoint: env.MOLLIE_API_ENDPOINT,
      extraCaPem: env.MOLLIE_EXTRA_CA_FILE && readFileSync(env.MOLLIE_EXTRA_CA_FILE, 'utf8'),
    },
    limits: {
      minimumTopUpCents: env.TOP_UP_MIN_CENTS,
      monthlyDepositLimitCents: env.MONTHLY_DEPOSIT_LIMIT_CENTS,
      monthlyWithdrawalLimitCents: env.MONTHLY_WITHDRAWAL_LIMIT_CENTS,
      minimumPayoutCents: env.PAYOUT_MIN_CENTS,
    },
    sepaDebtor: {
      name: env.SEPA_DEBTOR_NAME,
      iban: env.SEPA_DEBTOR_IBAN,
      bic: env.SEPA_DEBTOR_BIC,
    },
    reconciliation: {
      intervalMs: env.RECONCILIATION_INTERVAL_MS,
      graceMs: env.RECONCILIATION_GRACE_MS,
    },
  };
}
