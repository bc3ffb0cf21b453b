import { createServiceApp, type ServiceApp, type ServiceRuntime } from '@challenge/kit';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import type { ChallengeContext } from './context.ts';
import { resolvers } from './resolvers/index.ts';

export interface ChallengeApp extends ServiceApp {
  db: Database;
}

/** Builds challenge on top of the shared runtime; importable by tests. */
export async function buildApp(
  runtime: ServiceRuntime,
  databaseUrl: string,
): Promise<ChallengeApp> {
  const db = createDatabase(databaseUrl);
  const app = await createServiceApp<ChallengeContext>({
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
