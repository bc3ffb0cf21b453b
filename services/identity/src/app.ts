import {
  createServiceApp,
  createTokenIssuer,
  type ServiceApp,
  type ServiceRuntime,
} from '@challenge/kit';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import type { IdentityContext } from './context.ts';
import { createAuth } from './domain/auth.ts';
import { scheduleDeletionSweep } from './domain/lifecycle.ts';
import { createSecrets } from './domain/secrets.ts';
import { startConsumers } from './events/consumers.ts';
import { resolvers } from './resolvers/index.ts';

export interface IdentityConfig {
  databaseUrl: string;
  jwtPrivateKey: string;
  jwtIssuer: string;
  jwtTtlSeconds: number;
  publicOrigin: string;
  authHashSecret: string;
}

export interface IdentityApp extends ServiceApp {
  db: Database;
}

/** Builds identity on top of the shared runtime; importable by tests. */
export async function buildApp(
  runtime: ServiceRuntime,
  config: IdentityConfig,
): Promise<IdentityApp> {
  const db = createDatabase(config.databaseUrl);
  const issuer = await createTokenIssuer({
    privateKeyPem: config.jwtPrivateKey,
    issuer: config.jwtIssuer,
    ttlSeconds: config.jwtTtlSeconds,
  });
  const auth = createAuth({
    db,
    redis: runtime.redis,
    secrets: createSecrets(config.authHashSecret),
    issuer,
    publicOrigin: config.publicOrigin,
  });
  const app = await createServiceApp<IdentityContext>({
    runtime,
    database: {
      ping: () => pingDatabase(db),
      transaction: transactionRunner(db),
      disconnect: () => db.$disconnect(),
    },
    schemaFile: new URL('./schema.graphql', import.meta.url),
    resolvers,
    extend: (base) => ({ ...base, db, redis: runtime.redis, auth }),
    consumers: () => startConsumers(runtime, db),
  });
  const stopSweep = scheduleDeletionSweep({ db, redis: runtime.redis, logger: runtime.logger });
  runtime.lifecycle.onStop('deletion sweep', stopSweep);
  return { ...app, db };
}
