import {
  AppError,
  createEscrowClient,
  createServiceApp,
  type EscrowClient,
  type ServiceApp,
  type ServiceRuntime,
} from '@challenge/kit';
import { DEFAULT_RULES, type ChallengeOptions, type ChallengeRules } from './config.ts';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import type { ChallengeContext } from './context.ts';
import { startConsumers } from './events/consumers.ts';
import { internalRoutes } from './http/internal.ts';
import { startScheduler } from './domain/scheduler.ts';
import { createSocialLoaders } from './domain/social.ts';
export type { ChallengeOptions, ChallengeRules } from './config.ts';
import { resolvers } from './resolvers/index.ts';

export interface ChallengeApp extends ServiceApp {
  db: Database;
  escrow: EscrowClient;
  rules: ChallengeRules;
}

/** Builds challenge on top of the shared runtime; importable by tests. */
export async function buildApp(
  runtime: ServiceRuntime,
  databaseUrl: string,
  options: ChallengeOptions = {},
): Promise<ChallengeApp> {
  const db = createDatabase(databaseUrl);
  const rules = { ...DEFAULT_RULES, ...options.rules };
  const escrow = options.wallet
    ? createEscrowClient({
        baseUrl: options.wallet.internalUrl,
        token: options.wallet.internalApiToken,
      })
    : noEscrow;
  const clock = options.schedulerClock ?? (() => new Date());
  const { internalApiToken } = options;
  const app = await createServiceApp<ChallengeContext>({
    runtime,
    database: {
      ping: () => pingDatabase(db),
      transaction: transactionRunner(db),
      disconnect: () => db.$disconnect(),
    },
    schemaFile: new URL('./schema.graphql', import.meta.url),
    resolvers,
    extend: (base) => ({
      ...base,
      db,
      escrow,
      rules,
      redis: runtime.redis,
      redisPrefix: runtime.topicPrefix,
      publicOrigin: options.publicOrigin ?? 'http://127.0.0.1:4700',
      social: createSocialLoaders(db, base.user),
    }),
    consumers: () => startConsumers(runtime, db, clock),
    ...(internalApiToken
      ? { routes: internalRoutes({ db, internalApiToken, clock, logger: runtime.logger }) }
      : {}),
  });
  if (options.schedulerIntervalMs) {
    const scheduler = startScheduler(db, {
      intervalMs: options.schedulerIntervalMs,
      judgingWindowMs: rules.judgingWindowMs,
      escrow,
      logger: runtime.logger,
      clock,
    });
    // Registered after the database, so it stops first.
    runtime.lifecycle.onStop('scheduler', () => scheduler.stop());
  }
  return { ...app, db, escrow, rules };
}

/** For tests that never create a challenge: every escrow call fails. */
const noEscrow: EscrowClient = {
  hold: () => Promise.reject(new AppError('generic_error', 'No wallet is configured.')),
  release: () => Promise.reject(new AppError('generic_error', 'No wallet is configured.')),
};
