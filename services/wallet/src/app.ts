import { createServiceApp, type ServiceApp, type ServiceRuntime } from '@challenge/kit';
import type { WalletConfig } from './config.ts';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import type { WalletContext } from './context.ts';
import { startReconciliation } from './domain/reconciliation.ts';
import { startConsumers } from './events/consumers.ts';
import { walletRoutes } from './http/routes.ts';
import { createMollieProvider } from './providers/mollie.ts';
import type { PaymentProvider } from './providers/payment-provider.ts';
import { resolvers } from './resolvers/index.ts';

export interface WalletApp extends ServiceApp {
  db: Database;
  provider: PaymentProvider;
}

/** Builds wallet on top of the shared runtime; importable by tests. */
export async function buildApp(runtime: ServiceRuntime, config: WalletConfig): Promise<WalletApp> {
  const db = createDatabase(config.databaseUrl);
  const provider = createMollieProvider(config.mollie);
  const topUps = {
    db,
    provider,
    limits: config.limits,
    publicOrigin: config.publicOrigin,
    webhookUrl: config.paymentWebhookUrl,
    requireLiveMode: config.requireLivePayments ?? false,
  };
  const app = await createServiceApp<WalletContext>({
    runtime,
    database: {
      ping: () => pingDatabase(db),
      transaction: transactionRunner(db),
      disconnect: () => db.$disconnect(),
    },
    schemaFile: new URL('./schema.graphql', import.meta.url),
    resolvers,
    extend: (base) => ({ ...base, db, config, topUps, verifier: runtime.verifier }),
    routes: walletRoutes({
      db,
      internalApiToken: config.internalApiToken,
      topUps: { ...topUps, logger: runtime.logger },
      logger: runtime.logger,
    }),
    consumers: () => startConsumers(runtime, db),
  });
  const reconciliation = startReconciliation(
    db,
    config.reconciliation,
    runtime.logger,
    app.subgraph.metrics.registry,
    { ...topUps, logger: runtime.logger },
  );
  runtime.lifecycle.onStop('escrow reconciliation', () => reconciliation.stop());
  return { ...app, db, provider };
}
