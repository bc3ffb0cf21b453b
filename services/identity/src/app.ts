import { randomUUID } from 'node:crypto';
import {
  createServiceApp,
  createTokenIssuer,
  type ServiceApp,
  type ServiceRuntime,
  type TokenIssuer,
} from '@challenge/kit';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import type { IdentityContext } from './context.ts';
import { createAuth, type Auth } from './domain/auth.ts';
import { scheduleDeletionSweep } from './domain/lifecycle.ts';
import { createSecrets } from './domain/secrets.ts';
import { createTokenState, startTokenStateSync, type TokenState } from './domain/token-state.ts';
import { startConsumers } from './events/consumers.ts';
import { internalRoutes } from './http/internal.ts';
import { resolvers } from './resolvers/index.ts';

export interface IdentityConfig {
  databaseUrl: string;
  jwtPrivateKey: string;
  jwtIssuer: string;
  jwtTtlSeconds: number;
  publicOrigin: string;
  authHashSecret: string;
  /** Shared secret of internal calls (media's profile update, docs/adr/0049). */
  internalApiToken: string;
  /** Token-state copy to Redis: check for a lost copy / copy in full (defaults 5 s / 5 min). */
  tokenStateSync?: { checkIntervalMs: number; fullIntervalMs: number };
  /** How often waiting forgot-password requests are looked for (default 1 s). */
  resetRequestIntervalMs?: number;
}

export interface IdentityApp extends ServiceApp {
  db: Database;
  auth: Auth;
  tokenState: TokenState;
}

/**
 * Identity signs with one key; the verifiers accept every key of JWT_PUBLIC_KEY. A signing key
 * they do not know would log everyone out at the next log-in: refuse to start instead.
 */
async function assertSigningKeyIsTrusted(runtime: ServiceRuntime, issuer: TokenIssuer) {
  const probe = await issuer.issue({ id: randomUUID(), roles: ['user'] });
  await runtime.verifier.verify(probe.token).catch(() => {
    throw new Error(
      `JWT_PRIVATE_KEY (kid ${issuer.keyId}) does not match any key of JWT_PUBLIC_KEY: add its public key there first (docs/runbook.md)`,
    );
  });
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
  await assertSigningKeyIsTrusted(runtime, issuer);
  const tokenState = createTokenState(runtime.redis, runtime.authStatePrefix);
  const auth = createAuth({
    db,
    tokenState,
    logger: runtime.logger,
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
    extend: (base) => ({ ...base, db, redis: runtime.redis, tokenState, auth }),
    routes: internalRoutes({
      db,
      internalApiToken: config.internalApiToken,
      logger: runtime.logger,
    }),
    consumers: () => startConsumers(runtime, db),
  });
  const { logger, lifecycle } = runtime;
  // Registered after the HTTP server, so they stop before the database disconnects.
  const stopSync = await startTokenStateSync({
    db,
    state: tokenState,
    logger,
    ...(config.tokenStateSync ?? { checkIntervalMs: 5_000, fullIntervalMs: 5 * 60_000 }),
  });
  lifecycle.onStop('token state sync', stopSync);
  const stopResets = scheduleResetRequests(auth, logger, config.resetRequestIntervalMs ?? 1_000);
  lifecycle.onStop('forgot-password requests', stopResets);
  const stopSweep = scheduleDeletionSweep({ db, tokenState, logger });
  lifecycle.onStop('deletion sweep', stopSweep);
  return { ...app, db, auth, tokenState };
}

/** Carries out forgot-password requests in the background, one run at a time. */
function scheduleResetRequests(auth: Auth, logger: ServiceRuntime['logger'], intervalMs: number) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    auth
      .processPasswordResetRequests()
      .catch((error) => logger.error({ err: error }, 'forgot-password requests failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
