import { randomBytes } from 'node:crypto';
import pg from 'pg';
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

/** The migrated template every test database of a service is copied from (global setup). */
export const templateDatabase = (service: ServiceName) => `${service}_template`;

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
