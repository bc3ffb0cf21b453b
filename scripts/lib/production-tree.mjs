/**
 * A folder that runs production bundles with the production dependencies alone: the lockfile,
 * the package.json files of the workspaces that ship (without their devDependencies and
 * scripts), each workspace's dist/, and node_modules installed from them with
 * `npm install --omit=dev` (docs/adr/0078-production-bundles.md).
 *
 * Why not `npm ci --omit=dev` of the whole tree: npm keeps a dev dependency that is also an
 * optional peer of a production one (npm/cli#7772), and @prisma/client names the Prisma CLI and
 * TypeScript as optional peers, so the runtime would carry both (and the CLI's own dependencies,
 * about 280 MB in all). Without the root devDependencies nothing asks for them; the lockfile
 * still fixes every version (e2e/test/production-bundles.integration.test.ts checks that the
 * installed tree is the locked one).
 *
 * Traced (`--trace`, what the images ship: docs/adr/0086-images.md): afterwards every file under
 * node_modules that no bundle loads is deleted. @vercel/nft follows each dist/index.js through
 * its imports and requires, the files they read next to themselves and their native addons, as
 * Next.js does for its standalone output; the packages in KEEP_WHOLE (native code found by
 * platform at run time) stay whole. So @prisma/client keeps its PostgreSQL query compiler and
 * drops the other databases', and no type definitions, source maps or READMEs remain.
 *
 * usage: node scripts/lib/production-tree.mjs <folder> [workspace ...] [--trace]
 *        (default: all workspaces that ship)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './stack-config.mjs';

/**
 * Packages kept whole in a traced tree: they pick a native binary by platform at run time in a
 * way the tracer does not follow (sharp's `@img/sharp-<platform>/sharp.node` through its exports
 * map) or read files next to themselves by computed paths.
 */
export const KEEP_WHOLE = [
  'sharp',
  '@img/sharp-linux-x64',
  '@img/sharp-libvips-linux-x64',
  '@img/sharp-linuxmusl-x64',
  '@img/sharp-libvips-linuxmusl-x64',
  '@node-rs/argon2-linux-x64-gnu',
  '@node-rs/argon2-linux-x64-musl',
  '@prisma/schema-engine-wasm',
  // The gateway's geofence: reads its country database (data/*.dat) by computed paths.
  'geoip-country',
];

/** The workspaces that are built into bundles: the six services and the gateway. */
export const BUNDLED_WORKSPACES = [
  'services/identity',
  'services/challenge',
  'services/wallet',
  'services/media',
  'services/moderation',
  'services/notification',
  'gateway',
];

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** Every workspace folder of the repository by package name (@challenge/kit -> packages/kit). */
function workspaceFolders() {
  const folders = new Map();
  for (const pattern of readJson(path.join(repoRoot, 'package.json')).workspaces) {
    const dirs = pattern.endsWith('/*')
      ? fs
          .readdirSync(path.join(repoRoot, pattern.slice(0, -2)))
          .map((name) => `${pattern.slice(0, -2)}/${name}`)
      : [pattern];
    for (const dir of dirs) {
      const manifest = path.join(repoRoot, dir, 'package.json');
      if (fs.existsSync(manifest)) folders.set(readJson(manifest).name, dir);
    }
  }
  return folders;
}

/** The given workspaces and every workspace their production dependencies name, transitively. */
export function withWorkspaceDependencies(workspaces) {
  const folders = workspaceFolders();
  const result = new Set();
  const visit = (dir) => {
    if (result.has(dir)) return;
    result.add(dir);
    const { dependencies = {} } = readJson(path.join(repoRoot, dir, 'package.json'));
    for (const name of Object.keys(dependencies)) if (folders.has(name)) visit(folders.get(name));
  };
  workspaces.forEach(visit);
  return [...result].sort();
}

const withoutDevParts = ({ devDependencies: _dev, scripts: _scripts, ...manifest }) => manifest;

/**
 * Writes the production tree of `workspaces` into `target` (an empty or missing folder), installs
 * its dependencies and copies each bundled workspace's dist/. Returns the install's duration.
 */
export function writeProductionTree(target, workspaces = BUNDLED_WORKSPACES) {
  const all = withWorkspaceDependencies(workspaces);
  fs.mkdirSync(target, { recursive: true });
  const root = withoutDevParts(readJson(path.join(repoRoot, 'package.json')));
  fs.writeFileSync(
    path.join(target, 'package.json'),
    `${JSON.stringify({ ...root, workspaces: all }, null, 2)}\n`,
  );
  fs.copyFileSync(path.join(repoRoot, 'package-lock.json'), path.join(target, 'package-lock.json'));
  for (const dir of all) {
    fs.mkdirSync(path.join(target, dir), { recursive: true });
    const manifest = withoutDevParts(readJson(path.join(repoRoot, dir, 'package.json')));
    fs.writeFileSync(
      path.join(target, dir, 'package.json'),
      `${JSON.stringify(manifest, null, 2)}\n`,
    );
  }
  const started = Date.now();
  const install = spawnSync(
    'npm',
    ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'],
    { cwd: target, encoding: 'utf8' },
  );
  if (install.status !== 0)
    throw new Error(`npm install --omit=dev in ${target} failed:\n${install.stderr}`);
  const installSeconds = (Date.now() - started) / 1000;
  for (const dir of workspaces) {
    const dist = path.join(repoRoot, dir, 'dist');
    if (!fs.existsSync(path.join(dist, 'index.js')))
      throw new Error(`${dir}/dist/index.js is missing: build it first (npx turbo run build)`);
    fs.cpSync(dist, path.join(target, dir, 'dist'), { recursive: true });
  }
  return { workspaces: all, installSeconds };
}

/** Each bundle under `root`, and the dead-letter tool next to a subgraph's (scripts/bundle.mjs). */
export function tracedEntries(root, workspaces) {
  return workspaces.flatMap((workspace) =>
    ['index.js', 'deadletter.js']
      .map((file) => `${workspace}/dist/${file}`)
      .filter((file) => fs.existsSync(path.join(root, file))),
  );
}

/** Every file below `dir` (relative to `root`), without following symbolic links. */
function filesBelow(root, dir = root, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) filesBelow(root, full, out);
    else out.push(path.relative(root, full));
  }
  return out;
}

/** Removes the empty folders below `dir` (and `dir` itself when it ends up empty). */
function removeEmptyFolders(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory()) removeEmptyFolders(path.join(dir, entry.name));
  if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

/**
 * The entry files of the packages a bundle loads with `createRequire(new URL(...,
 * import.meta.url).href)('name')` (the gateway's geoip-country, a CommonJS package with its
 * database): the tracer does not follow a require made from a computed URL, so each is resolved
 * from the bundle's folder and traced as an entry of its own.
 */
function requiredByName(root, entries) {
  const files = [];
  for (const entry of entries) {
    const source = fs.readFileSync(path.join(root, entry), 'utf8');
    const require = createRequire(path.join(root, entry));
    for (const [, name] of source.matchAll(/createRequire\([^;]*?\)\("([^"]+)"\)/g))
      files.push(require.resolve(name));
  }
  return files;
}

/**
 * Deletes from every node_modules folder under `root` the files that none of `entries` (paths
 * relative to `root`) loads, as @vercel/nft traces them; packages named in KEEP_WHOLE stay
 * whole wherever they are installed. Returns the bytes kept and removed below node_modules.
 */
export async function pruneToTrace(root, entries) {
  const { nodeFileTrace } = await import('@vercel/nft');
  const { fileList } = await nodeFileTrace(
    [...entries.map((entry) => path.join(root, entry)), ...requiredByName(root, entries)],
    { base: root, processCwd: root },
  );
  const keep = new Set(fileList);
  const wholePackage = new RegExp(
    `(^|/)node_modules/(${KEEP_WHOLE.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})/`,
  );
  let kept = 0;
  let removed = 0;
  const folders = filesBelow(root)
    .filter((file) => file.split(path.sep).includes('node_modules'))
    .map((file) => {
      const full = path.join(root, file);
      const size = fs.lstatSync(full).size;
      if (keep.has(file) || wholePackage.test(file.split(path.sep).join('/'))) kept += size;
      else {
        removed += size;
        fs.rmSync(full);
      }
      return file.slice(0, file.indexOf('node_modules') + 'node_modules'.length);
    });
  for (const folder of new Set(folders))
    if (fs.existsSync(path.join(root, folder))) removeEmptyFolders(path.join(root, folder));
  return { kept, removed };
}

/**
 * What the migration image runs (`node scripts/migrate.mjs apply`, docs/adr/0003): the script
 * and its two modules, every service's prisma/ folder (schema, migrations, snapshot), and the
 * files of pg, the Prisma driver adapter and the WebAssembly schema engine that it loads, traced
 * from this repository's node_modules (the lockfile's versions). No Prisma CLI, no tsx.
 */
export async function writeMigrationTree(target) {
  fs.mkdirSync(target, { recursive: true });
  const scripts = [
    'scripts/migrate.mjs',
    'scripts/lib/prisma-migrations.mjs',
    'scripts/lib/stack-config.mjs',
  ];
  for (const file of scripts) {
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, file), path.join(target, file));
  }
  for (const service of fs.readdirSync(path.join(repoRoot, 'services'))) {
    const prisma = path.join(repoRoot, 'services', service, 'prisma');
    if (fs.existsSync(prisma))
      fs.cpSync(prisma, path.join(target, 'services', service, 'prisma'), { recursive: true });
  }
  fs.writeFileSync(
    path.join(target, 'package.json'),
    `${JSON.stringify({ name: 'challenge-platform-migrations', private: true, type: 'module' }, null, 2)}\n`,
  );
  const { nodeFileTrace } = await import('@vercel/nft');
  const { fileList } = await nodeFileTrace([path.join(repoRoot, 'scripts/migrate.mjs')], {
    base: repoRoot,
    processCwd: repoRoot,
    // Only packages are taken from the trace. The stack's paths (stack-config.mjs) otherwise lead
    // it through .local, where PostgreSQL and MinIO create and delete files while it reads
    // ("File .local/minio/data/.minio.sys/tmp/.trash/… does not exist").
    ignore: (file) => !file.startsWith('node_modules/') && !file.startsWith('scripts/'),
  });
  for (const file of fileList) {
    if (!file.startsWith(`node_modules${path.sep}`)) continue;
    fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, file), path.join(target, file));
  }
  // The schema engine is found with require.resolve and its files by computed paths
  // (scripts/lib/prisma-migrations.mjs), which the tracer does not follow: copied whole.
  const whole = ['@prisma/schema-engine-wasm'];
  for (const name of whole) {
    const dir = path.join('node_modules', name);
    fs.cpSync(path.join(repoRoot, dir), path.join(target, dir), { recursive: true });
  }
  return { files: fileList.size, whole };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const trace = args.includes('--trace');
  const [target, ...workspaces] = args.filter((arg) => arg !== '--trace');
  if (!target) {
    console.error(
      'usage: node scripts/lib/production-tree.mjs <folder> [workspace ...] [--trace]\n' +
        '       node scripts/lib/production-tree.mjs <folder> migrations',
    );
    process.exit(1);
  }
  if (workspaces.length === 1 && workspaces[0] === 'migrations') {
    const result = await writeMigrationTree(path.resolve(target));
    console.log(`${target}: the migrations, ${result.files} files traced`);
  } else {
    const shipped = workspaces.length ? workspaces : BUNDLED_WORKSPACES;
    const result = writeProductionTree(path.resolve(target), shipped);
    console.log(
      `${target}: ${result.workspaces.join(', ')}; npm install --omit=dev took ${result.installSeconds.toFixed(0)}s`,
    );
    if (trace) {
      const { kept, removed } = await pruneToTrace(
        path.resolve(target),
        tracedEntries(path.resolve(target), shipped),
      );
      const mib = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;
      console.log(`traced: kept ${mib(kept)} of node_modules, removed ${mib(removed)}`);
    }
  }
}
