import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/stack-config.mjs';
import { describe, expect, it } from 'vitest';

type LockedPackage = {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  link?: boolean;
};

const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};

/** Where node would find `name` from the package at `from`: its own node_modules, then each parent's. */
function resolves(from: string, name: string): boolean {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (candidate in lock.packages) return true;
    if (!dir) return false;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent === -1 ? '' : dir.slice(0, parent);
  }
}

// `npm ci` refuses a lockfile that leaves out any dependency a locked package names, also another
// platform's optional binary (a registry that lacks the newest @turbo/darwin-64 makes `npm install`
// drop it silently). This is the same check, without the network.
describe('package-lock.json is complete, as npm ci needs it', () => {
  it('locks every dependency and optional dependency of every locked package', () => {
    const missing: string[] = [];
    for (const [key, pkg] of Object.entries(lock.packages)) {
      if (pkg.link) continue;
      for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }))
        if (!resolves(key, name)) missing.push(`${key || '(root)'} -> ${name}`);
    }
    expect(missing).toEqual([]);
  });
});
