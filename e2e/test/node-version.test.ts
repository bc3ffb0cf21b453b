import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BUNDLE_COMMAND } from '../../scripts/lib/platform.mjs';
import { nodeRuntime, repoRoot } from '../../scripts/lib/stack-config.mjs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const major = nodeRuntime.version.split('.')[0];
const { satisfies } = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
};

type LockedPackage = { engines?: { node?: string }; os?: string[]; cpu?: string[] };

/** npm's own test of a package's `os` or `cpu` list: allowed names, or `!name` exclusions. */
const fits = (list: string[] | undefined, value: string) =>
  !list ||
  (list.some((entry) => !entry.startsWith('!'))
    ? list.includes(value)
    : !list.includes(`!${value}`));

describe('one Node everywhere (docs/adr/0075-node-24.md), running the same bundles', () => {
  it('engines, .nvmrc, @types/node, the Dockerfile and compose name the Node that the bootstrap pins', () => {
    const pkg = JSON.parse(read('package.json')) as {
      engines: { node: string };
      devDependencies: Record<string, string>;
    };
    expect(pkg.engines.node).toBe(`^${nodeRuntime.minimum}`);
    expect(satisfies(nodeRuntime.version, pkg.engines.node)).toBe(true);
    expect(read('.nvmrc').trim()).toBe(nodeRuntime.version);
    expect(pkg.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${major}\\.`));
    expect(read('Dockerfile')).toMatch(
      new RegExp(`^ARG NODE_IMAGE=node:${major}-bookworm-slim$`, 'm'),
    );
    const composeImages = read('docker-compose.yml').match(/image: node:\S+/g) ?? [];
    expect(composeImages.length).toBeGreaterThan(0);
    for (const image of composeImages) expect(image).toBe(`image: node:${major}-bookworm-slim`);
  });

  it('the images run the bundles with the same arguments as npm start', () => {
    const [flags, entry] = [BUNDLE_COMMAND.slice(0, -1), BUNDLE_COMMAND.at(-1)];
    expect(read('Dockerfile')).toContain(
      `CMD ${JSON.stringify(['node', ...flags, `current/${entry}`]).replaceAll(',', ', ')}`,
    );
    expect(read('docker-compose.yml')).toContain(
      `exec node ${[...flags, `current/${entry}`].join(' ')}`,
    );
  });

  it('npm test runs on it (the bootstrap re-runs everything on it when the machine has another Node)', () => {
    expect(
      satisfies(process.versions.node, `^${nodeRuntime.minimum}`),
      `running on Node ${process.versions.node}`,
    ).toBe(true);
  });

  it('every script waits for the bootstrap (else it runs twice: on this Node and on the pinned one)', () => {
    const unawaited = readdirSync(path.join(repoRoot, 'scripts'))
      .filter((file) => file.endsWith('.mjs'))
      .filter((file) => /^(?!\s*await\b).*\bbootstrap\(\)/m.test(read(`scripts/${file}`)));
    expect(unawaited).toEqual([]);
  });

  it('accepts every locked package that npm installs here: no EBADENGINE warning from npm ci', () => {
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, LockedPackage>;
    };
    const refused = Object.entries(lock.packages)
      .filter(([key]) => key.includes('node_modules/'))
      .filter(([, pkg]) => fits(pkg.os, process.platform) && fits(pkg.cpu, process.arch))
      .filter(([, pkg]) => pkg.engines?.node && !satisfies(nodeRuntime.version, pkg.engines.node))
      .map(([key, pkg]) => `${key} wants node ${pkg.engines?.node}`);
    expect(refused).toEqual([]);
  });
});
