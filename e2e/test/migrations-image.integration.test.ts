import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SERVICES, stack } from '@challenge/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMigrationTree } from '../../scripts/lib/production-tree.mjs';
import { repoRoot } from '../../scripts/lib/stack-config.mjs';

/**
 * The migrations image's /app (docs/adr/0086-images.md): what `writeMigrationTree` collects must
 * apply every service's migrations to empty databases by itself, with no Prisma CLI, no tsx and
 * no other node_modules than its own (the Helm hook, the kustomize Job and compose's `migrate`
 * run exactly this).
 */
let root: string;
const suffix = `${process.pid}_${Date.now().toString(36)}`;
const databaseName = (service: string) => `${service}_migtree_${suffix}`;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: stack.postgresAdminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'challenge-migrations-'));
  await writeMigrationTree(root);
  await admin(async (client) => {
    for (const service of SERVICES)
      await client.query(`CREATE DATABASE "${databaseName(service)}"`);
  });
}, 180_000);

afterAll(async () => {
  await admin(async (client) => {
    for (const service of SERVICES)
      await client.query(`DROP DATABASE IF EXISTS "${databaseName(service)}" WITH (FORCE)`);
  });
  rmSync(root, { recursive: true, force: true });
}, 60_000);

describe("the migrations image's files", () => {
  it('hold no Prisma CLI, no tsx and no service code', () => {
    for (const name of ['prisma', 'tsx', 'typescript', '@prisma/client'])
      expect(existsSync(path.join(root, 'node_modules', name)), name).toBe(false);
    expect(existsSync(path.join(root, 'services', 'wallet', 'src'))).toBe(false);
  });

  it("apply every service's migrations to empty databases", async () => {
    const env = Object.fromEntries(
      SERVICES.map((service) => [
        `${service.toUpperCase()}_DATABASE_URL`,
        stack.databaseUrl(databaseName(service)),
      ]),
    );
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['scripts/migrate.mjs', 'apply'],
      { cwd: root, env: { ...env, NODE_ENV: 'production' }, timeout: 150_000 },
    );
    expect(stdout).toContain('identity      applied');
    const applied = await admin(async () => {
      const counts: Record<string, number> = {};
      for (const service of SERVICES) {
        const client = new pg.Client({
          connectionString: stack.databaseUrl(databaseName(service)),
        });
        await client.connect();
        try {
          const { rows } = await client.query(
            'SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL',
          );
          counts[service] = rows[0].n;
        } finally {
          await client.end();
        }
      }
      return counts;
    });
    const committed = Object.fromEntries(
      SERVICES.map((service) => [
        service,
        readdirSync(path.join(repoRoot, 'services', service, 'prisma', 'migrations'), {
          withFileTypes: true,
        }).filter((entry) => entry.isDirectory()).length,
      ]),
    );
    expect(applied).toEqual(committed);
  }, 180_000);
});
