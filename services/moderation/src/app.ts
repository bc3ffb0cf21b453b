import { createServiceApp, type ServiceApp, type ServiceRuntime } from '@challenge/kit';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import type { ModerationContext } from './context.ts';
import { resolvers } from './resolvers/index.ts';

export interface ModerationApp extends ServiceApp {
  db: Database;
}

/** Builds moderation on top of the shared runtime; importable by tests. */
export async function buildApp(
  runtime: ServiceRuntime,
  databaseUrl: string,
): Promise<ModerationApp> {
  const db = createDatabase(databaseUrl);
  const app = await createServiceApp<ModerationContext>({
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
