import { createServiceApp, type ServiceApp, type ServiceRuntime } from '@challenge/kit';
import type { ModerationOptions } from './config.ts';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import type { ModerationContext } from './context.ts';
import { REFEREE_WINDOW_MS, startEscalationScheduler } from './domain/referee.ts';
import { startConsumers } from './events/consumers.ts';
import { resolvers } from './resolvers/index.ts';
export type { ModerationOptions } from './config.ts';

export interface ModerationApp extends ServiceApp {
  db: Database;
}

/** Builds moderation on top of the shared runtime; importable by tests. */
export async function buildApp(
  runtime: ServiceRuntime,
  databaseUrl: string,
  options: ModerationOptions = {},
): Promise<ModerationApp> {
  const db = createDatabase(databaseUrl);
  const refereeWindowMs = options.refereeWindowMs ?? REFEREE_WINDOW_MS;
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
    consumers: () => startConsumers(runtime, db, { refereeWindowMs }),
  });
  if (options.schedulerIntervalMs) {
    const scheduler = startEscalationScheduler(db, {
      intervalMs: options.schedulerIntervalMs,
      logger: runtime.logger,
      clock: options.schedulerClock,
    });
    // Registered after the database, so it stops first.
    runtime.lifecycle.onStop('scheduler', () => scheduler.stop());
  }
  return { ...app, db };
}
