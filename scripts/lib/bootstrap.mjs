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
  console.log('Installing npm dependencies...');
  // Not `npm ci`: this registry's lockfiles leave out other platforms' optional packages (turbo's
  // darwin and windows binaries), which `npm ci` counts as out of sync; `npm install` follows
  // the lockfile all the same and leaves it unchanged.
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('npm could not install the dependencies (see above).');
    process.exit(result.status ?? 1);
  }
}

export function bootstrap() {
  ensureNodeVersion();
  ensureDependencies();
}
