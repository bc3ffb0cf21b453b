import { createServiceApp, type ServiceApp, type ServiceRuntime } from '@challenge/kit';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import { createStorage, type ObjectStorage, type StorageConfig } from './data/storage.ts';
import type { MediaContext } from './context.ts';
import { resolvers } from './resolvers/index.ts';

export interface MediaApp extends ServiceApp {
  db: Database;
  storage: ObjectStorage;
}

/** Builds media on top of the shared runtime; importable by tests. */
export async function buildApp(
  runtime: ServiceRuntime,
  databaseUrl: string,
  storageConfig: StorageConfig,
): Promise<MediaApp> {
  const storage = createStorage(storageConfig);
  // Before anything else: an unreachable or misconfigured store fails the start, not the first upload.
  await storage.ensureBucket();
  const db = createDatabase(databaseUrl);
  const app = await createServiceApp<MediaContext>({
    runtime,
    database: {
      ping: () => pingDatabase(db),
      transaction: transactionRunner(db),
      disconnect: () => db.$disconnect(),
    },
    schemaFile: new URL('./schema.graphql', import.meta.url),
    resolvers,
    readiness: { storage: () => storage.ping() },
    extend: (base) => ({ ...base, db, storage }),
  });
  return { ...app, db, storage };
}
