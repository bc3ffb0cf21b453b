import { createServiceApp, type ServiceApp, type ServiceRuntime } from '@challenge/kit';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import type { NotificationContext } from './context.ts';
import { resolvers } from './resolvers/index.ts';

export interface NotificationApp extends ServiceApp {
  db: Database;
}

/** Builds notification on top of the shared runtime; importable by tests. */
export async function buildApp(
  runtime: ServiceRuntime,
  databaseUrl: string,
): Promise<NotificationApp> {
  const db = createDatabase(databaseUrl);
  const app = await createServiceApp<NotificationContext>({
    runtime,
    database: {
      ping: () => pingDatabase(db),
      transaction: transactionRunner(db),
      disconnect: () => db.$disconnect(),
    },
    schemaFile: new URL('./schema.graphql', import.meta.url),
    resolvers,
    extend: (base) => ({ ...base, db }),
  });
  return { ...app, db };
}
