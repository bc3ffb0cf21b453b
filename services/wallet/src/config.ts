/** Wallet's settings, built from the environment by env.ts (or by a test). */
export interface WalletConfig {
  databaseUrl: string;
  /** The shared secret of service-to-service calls (the escrow hold). */
  internalApiToken: string;
  publicOrigin: string;
  /** A function because a test learns its own port only after listening. */
  paymentWebhookUrl: () => string;
  mollie: { apiKey: string; apiEndpoint: string; extraCaPem?: string };
  /** Credit only payments in Mollie's live mode (production); default false. */
  requireLivePayments?: boolean;
  limits: Limits;
  sepaDebtor: { name: string; iban: string; bic: string };
  reconciliation: { intervalMs: number; graceMs: number };
}

/** Cents. */
export interface Limits {
  minimumTopUpCents: number;
  monthlyDepositLimitCents: number;
  monthlyWithdrawalLimitCents: number;
  minimumPayoutCents: number;
}
