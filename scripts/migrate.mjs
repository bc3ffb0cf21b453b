/**
 * Prisma migrations for every service (docs/adr/0003-prisma-offline.md):
 *   node scripts/migrate.mjs create <name> [--service s]   new migration from a schema change
 *   node scripts/migrate.mjs apply [--service s]           apply pending migrations to each service's database
 *                                                          (<SERVICE>_DATABASE_URL when set, else the local stack's)
 *   node scripts/migrate.mjs check                         exit 1 when a schema change has no migration
 * create and check need a reachable PostgreSQL (the schema engine insists); the local stack's.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  applyMigrations,
  createMigration,
  ensureDatabase,
  pendingSchemaDiff,
} from './lib/prisma-migrations.mjs';
import { repoRoot, stackUrls } from './lib/stack-config.mjs';

export const SERVICES = ['identity', 'challenge', 'wallet', 'media', 'moderation', 'notification'];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { service: { type: 'string', multiple: true } },
});
const [command, name] = positionals;
const services = values.service ?? SERVICES;
const unknown = services.filter((service) => !SERVICES.includes(service));
if (unknown.length) {
  console.error(`Unknown service: ${unknown.join(', ')}`);
  process.exit(2);
}
const urls = stackUrls();
const serviceDir = (service) => path.join(repoRoot, 'services', service);

switch (command) {
  case 'create': {
    if (!name) {
      console.error('Usage: npm run migrate:create -- <name> [--service <service>]');
      process.exit(2);
    }
    for (const service of services) {
      const created = await createMigration(serviceDir(service), name, urls.postgresAdminUrl);
      console.log(`${service.padEnd(13)} ${created ? `created ${created}` : 'no schema change'}`);
    }
    break;
  }
  case 'apply': {
    for (const service of services) {
      // Deployments (compose, the Helm hook, the kustomize Job) name each database explicitly
      // and own their creation; locally the stack's admin account creates what is missing.
      const deployedUrl = process.env[`${service.toUpperCase()}_DATABASE_URL`];
      if (!deployedUrl) await ensureDatabase(urls.postgresAdminUrl, service);
      const applied = await applyMigrations(
        serviceDir(service),
        deployedUrl ?? urls.databaseUrl(service),
      );
      console.log(
        `${service.padEnd(13)} ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`,
      );
    }
    break;
  }
  case 'check': {
    let missing = 0;
    for (const service of services) {
      const sql = await pendingSchemaDiff(serviceDir(service), urls.postgresAdminUrl);
      if (sql) {
        missing += 1;
        console.error(
          `${service}: schema.prisma changed without a migration; run npm run migrate:create -- <name> --service ${service}`,
        );
      }
    }
    process.exit(missing ? 1 : 0);
    break;
  }
  default:
    console.error(
      'Usage: node scripts/migrate.mjs create <name> | apply | check  [--service <service>]',
    );
    process.exit(2);
}
