import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { repoRoot } from '../../../scripts/lib/stack-config.mjs';
import { stack } from './stack.ts';

export const SERVICES = [
  'identity',
  'challenge',
  'wallet',
  'media',
  'moderation',
  'notification',
] as const;
export type ServiceName = (typeof SERVICES)[number];

/** A digest of a service's committed migrations: what its template database must contain. */
function migrationsDigest(service: ServiceName): string {
  const dir = path.join(repoRoot, 'services', service, 'prisma', 'migrations');
  const hash = createHash('sha256');
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (!entry.isDirectory()) continue;
    hash.update(`${entry.name}\n`);
    hash.update(readFileSync(path.join(dir, entry.name, 'migration.sql')));
  }
  return hash.digest('hex').slice(0, 10);
}

const templates = new Map<ServiceName, string>();
/**
 * The migrated template every test database of a service is copied from (global setup). Named
 * after its migrations, so clones and branches sharing one stack never copy each other's schema.
 */
export function templateDatabase(service: ServiceName): string {
  let name = templates.get(service);
  if (!name) {
    name = `${service}_template_${migrationsDigest(service)}`;
    templates.set(service, name);
  }
  return name;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: stack.postgresAdminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for one test file, copied from the service's migrated template: isolated,
 * so test files run concurrently, and fast (a file copy, no migrations).
 */
export async function createTestDatabase(service: ServiceName): Promise<TestDatabase> {
  const name = `${service}_t_${randomBytes(5).toString('hex')}`;
  await withAdmin(async (client) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDatabase(service)}"`);
        return;
      } catch (error) {
        // Two copies of one template at the same instant collide; a retry succeeds.
        const busy = (error as { code?: string }).code === '55006';
        if (!busy || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  });
  return {
    name,
    url: stack.databaseUrl(name),
    drop: () =>
      withAdmin(
        async (client) =>
          void (await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
      ),
  };
}
