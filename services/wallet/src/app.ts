import { createServiceApp, type ServiceApp, type ServiceRuntime } from '@challenge/kit';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import type { WalletContext } from './context.ts';
import { startConsumers } from './events/consumers.ts';
import { resolvers } from './resolvers/index.ts';

export interface WalletApp extends ServiceApp {
  db: Database;
}

/** Builds wallet on top of the shared runtime; importable by tests. */
export async function buildApp(runtime: ServiceRuntime, databaseUrl: string): Promise<WalletApp> {
  const db = createDatabase(databaseUrl);
  const app = await createServiceApp<WalletContext>({
    runtime,
    database: {
      ping: () => pingDatabase(db),
      transaction: transactionRunner(db),
      disconnect: () => db.$disconnect(),
    },
    schemaFile: new URL('./schema.graphql', import.meta.url),
    resolvers,
    extend: (base) => ({ ...base, db }),
    consumers: () => startConsumers(runtime, db),
  });
  return { ...app, db };
}
