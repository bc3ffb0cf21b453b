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
 * usage: node scripts/lib/production-tree.mjs <folder> [workspace ...]   (default: all that ship)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './stack-config.mjs';

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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [target, ...workspaces] = process.argv.slice(2);
  if (!target) {
    console.error('usage: node scripts/lib/production-tree.mjs <folder> [workspace ...]');
    process.exit(1);
  }
  const result = writeProductionTree(
    path.resolve(target),
    workspaces.length ? workspaces : BUNDLED_WORKSPACES,
  );
  console.log(
    `${target}: ${result.workspaces.join(', ')}; npm install --omit=dev took ${result.installSeconds.toFixed(0)}s`,
  );
}
