import path from 'node:path';
import { authStateKeys, createRedis } from '@challenge/kit';
import pg from 'pg';
import { pino } from 'pino';
import { applyMigrations, ensureDatabase } from '../../../scripts/lib/prisma-migrations.mjs';
import { repoRoot } from '../../../scripts/lib/stack-config.mjs';
import { SERVICES, templateDatabase } from './databases.ts';
import { stack } from './stack.ts';

/**
 * Vitest global setup of every workspace: checks that the local stack answers and brings each
 * service's template database up to its newest migration (a no-op when it already is).
 */
export default async function setup(): Promise<void> {
  const client = new pg.Client({
    connectionString: stack.postgresAdminUrl,
    connectionTimeoutMillis: 3_000,
  });
  try {
    await client.connect();
  } catch {
    throw new Error(
      'The local stack is not running: start it with `npm run stack -- up` (npm test does it for you).',
    );
  } finally {
    await client.end().catch(() => {});
  }
  // Identity marks the token state in Redis as complete when it has copied it there; until then
  // every authenticated request is refused (kit's access.ts). Tests that start no identity stand
  // in for it: their state is whatever the test writes.
  const redis = createRedis(stack.redisUrl, pino({ level: 'silent' }));
  try {
    await redis.set(authStateKeys('').synced, 'global-setup');
  } finally {
    redis.disconnect();
  }
  for (const service of SERVICES) {
    const name = templateDatabase(service);
    await ensureDatabase(stack.postgresAdminUrl, name);
    await applyMigrations(path.join(repoRoot, 'services', service), stack.databaseUrl(name));
  }
}
