/**
 * Prisma migrations without the native schema engine: the WebAssembly schema engine does the
 * diffing and applying through the pg driver adapter (see docs/adr/0003-prisma-offline.md).
 * A service's migrations live in services/<name>/prisma/migrations; `schema.snapshot.prisma`
 * beside them is the schema as of the newest migration, so that a new migration is a
 * schema-to-schema diff (diffing from the migrations folder needs a shadow database that this
 * engine version cannot use).
 */
import { readFile, readdir, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';

const require = createRequire(import.meta.url);
const LOCKFILE = { path: 'migration_lock.toml', content: 'provider = "postgresql"\n' };
const FILTERS = { externalTables: [], externalEnums: [] };

let enginePromise;
/** Instantiates the wasm module by hand, so that Node 20 needs no --experimental-wasm-modules. */
function loadEngineModule() {
  enginePromise ??= (async () => {
    const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
    const bg = await import(path.join(dir, 'schema_engine_bg.js'));
    const bytes = await readFile(path.join(dir, 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': bg });
    bg.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start?.();
    return bg;
  })();
  return enginePromise;
}

async function withEngine(name, schemaText, connectionString, fn) {
  const { SchemaEngine } = await loadEngineModule();
  // Our own pool, ended afterwards: the engine never closes its connections, and an idle one
  // left on a template database blocks CREATE DATABASE ... TEMPLATE for seconds.
  const pool = new pg.Pool({ connectionString, max: 2 });
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));
  const logs = [];
  const engine = await SchemaEngine.new(
    { datamodels: [[name, schemaText]] },
    (line) => logs.push(line),
    adapter,
  );
  try {
    return await fn(engine);
  } catch (error) {
    throw new Error(
      `schema engine failed for ${name}: ${error?.message ?? error}\n${logs.join('\n')}`,
    );
  } finally {
    engine.free?.();
    await pool.end();
  }
}

export function servicePaths(serviceDir) {
  const prismaDir = path.join(serviceDir, 'prisma');
  return {
    schema: path.join(prismaDir, 'schema.prisma'),
    migrations: path.join(prismaDir, 'migrations'),
    snapshot: path.join(prismaDir, 'migrations', 'schema.snapshot.prisma'),
  };
}

/** SQL that takes the last migrated schema to the current one; '' when nothing changed. */
export async function pendingSchemaDiff(serviceDir, adminUrl) {
  const paths = servicePaths(serviceDir);
  const current = await readFile(paths.schema, 'utf8');
  const snapshot = existsSync(paths.snapshot) ? await readFile(paths.snapshot, 'utf8') : null;
  const from = snapshot
    ? { tag: 'schemaDatamodel', files: [{ path: 'snapshot.prisma', content: snapshot }] }
    : { tag: 'empty' };
  const to = { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: current }] };
  // The diff is schema to schema, but the engine insists on a reachable server at start.
  const result = await withEngine('schema.prisma', current, adminUrl, (engine) =>
    engine.diff({
      from,
      to,
      script: true,
      shadowDatabaseUrl: null,
      exitCode: null,
      filters: FILTERS,
    }),
  );
  const sql = (result.stdout ?? '').trim();
  return sql === '' || sql.startsWith('-- This is an empty migration') ? '' : sql + '\n';
}

/** Writes prisma/migrations/<timestamp>_<name>/migration.sql and moves the snapshot forward. */
export async function createMigration(serviceDir, name, adminUrl) {
  const sql = await pendingSchemaDiff(serviceDir, adminUrl);
  if (!sql) return null;
  const paths = servicePaths(serviceDir);
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const dirName = `${stamp}_${name.replace(/[^a-z0-9_]+/gi, '_').toLowerCase()}`;
  await mkdir(path.join(paths.migrations, dirName), { recursive: true });
  await writeFile(path.join(paths.migrations, dirName, 'migration.sql'), sql);
  await writeFile(path.join(paths.migrations, LOCKFILE.path), LOCKFILE.content);
  await writeFile(paths.snapshot, await readFile(paths.schema, 'utf8'));
  return dirName;
}

async function migrationDirectories(migrationsDir) {
  if (!existsSync(migrationsDir)) return [];
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const dirs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    dirs.map(async (dir) => ({
      path: dir,
      migrationFile: {
        path: 'migration.sql',
        content: {
          tag: 'ok',
          value: await readFile(path.join(migrationsDir, dir, 'migration.sql'), 'utf8'),
        },
      },
    })),
  );
}

/** Creates the database when missing. Returns true when it was created. */
export async function ensureDatabase(adminUrl, dbName) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
    if (found.rowCount) return false;
    await client.query(`CREATE DATABASE "${dbName.replace(/"/g, '')}"`);
    return true;
  } catch (error) {
    if (error.code === '42P04') return false; // created by a concurrent run
    throw error;
  } finally {
    await client.end();
  }
}

/** Applies every pending migration of the service to the database; returns the names applied. */
export async function applyMigrations(serviceDir, databaseUrl) {
  const paths = servicePaths(serviceDir);
  const migrationDirectoriesList = await migrationDirectories(paths.migrations);
  if (migrationDirectoriesList.length === 0) return [];
  const schema = await readFile(paths.schema, 'utf8');
  // One migrator per database at a time, whoever runs it (tests in parallel, start, CI).
  const lock = new pg.Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(7242001)');
    const result = await withEngine('schema.prisma', schema, databaseUrl, (engine) =>
      engine.applyMigrations({
        migrationsList: {
          baseDir: paths.migrations,
          lockfile: LOCKFILE,
          shadowDbInitScript: '',
          migrationDirectories: migrationDirectoriesList,
        },
        filters: FILTERS,
      }),
    );
    return result.appliedMigrationNames ?? [];
  } finally {
    await lock.query('SELECT pg_advisory_unlock(7242001)').catch(() => {});
    await lock.end();
  }
}
