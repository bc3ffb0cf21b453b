/**
 * First step of `npm start` and `npm test` on any machine, using Node builtins only: checks the
 * Node version and installs the npm dependencies when they are missing or older than the lockfile.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function ensureNodeVersion() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(
      `Node ${process.versions.node} is too old: this project needs Node 20.19 or newer.`,
    );
    process.exit(1);
  }
}

export function ensureDependencies() {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  const lockfile = path.join(root, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lockfile).mtimeMs) return;
  // A clone without node_modules installs exactly the lockfile, as the Dockerfile does; one whose
  // node_modules is older than the lockfile (after a pull) is brought up to date in place.
  const fresh = !existsSync(path.join(root, 'node_modules'));
  const args = fresh ? ['ci'] : ['install'];
  console.log(`Installing npm dependencies (npm ${args[0]})...`);
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(
      `npm ${args[0]} could not install the dependencies (see above).` +
        (fresh
          ? ' If it says package.json and package-lock.json are out of sync, run `npm install` once and commit package-lock.json.'
          : ''),
    );
    process.exit(result.status ?? 1);
  }
}

export function bootstrap() {
  ensureNodeVersion();
  ensureDependencies();
}
