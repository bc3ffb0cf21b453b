import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BUNDLED_WORKSPACES } from '../../scripts/lib/production-tree.mjs';
import { repoRoot } from '../../scripts/lib/stack-config.mjs';
import { describe, expect, it } from 'vitest';

/**
 * A bundle inlines kit and events (docs/adr/0078-production-bundles.md), so their npm imports
 * are resolved from the bundle's folder, not from packages/kit. When another copy of a package
 * sits on that path (the gateway's @apollo/gateway needs @opentelemetry/resources 1.x at the
 * root of node_modules, kit 2.x), the bundle binds to the wrong one and stops before its first
 * line: `Named export 'resourceFromAttributes' not found`. Each bundle's static imports are
 * loaded here from its own dist/ folder, as `node dist/index.js` loads them, and every name it
 * imports must be there.
 */
const STATIC_IMPORT =
  /^import\s+(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\}|\*\s+as\s+[\w$]+)?\s*(?:from\s*)?"([^".][^"]*)";/gm;

const CHECK = `
const wanted = JSON.parse(process.argv[1]);
const problems = [];
for (const [specifier, names] of Object.entries(wanted)) {
  let mod;
  try { mod = await import(specifier); }
  catch (error) { problems.push(specifier + ': ' + String(error.message).split('\\n')[0]); continue; }
  for (const name of names) if (!(name in mod)) problems.push(specifier + ' has no export ' + name);
}
console.log(JSON.stringify(problems));
`;

describe('each bundle finds its npm imports from its own folder', () => {
  it.each(BUNDLED_WORKSPACES)('%s/dist/index.js', (workspace) => {
    const dist = path.join(repoRoot, workspace, 'dist');
    expect(existsSync(path.join(dist, 'index.js')), 'build it: npx turbo run build').toBe(true);
    const wanted: Record<string, string[]> = {};
    for (const [, defaultName, named, specifier] of readFileSync(
      path.join(dist, 'index.js'),
      'utf8',
    ).matchAll(STATIC_IMPORT)) {
      if (specifier.startsWith('node:')) continue;
      const names = (wanted[specifier] ??= []);
      if (defaultName) names.push('default');
      for (const part of (named ?? '').split(',')) {
        const name = part.trim().split(/\s+as\s+/)[0];
        if (name) names.push(name);
      }
    }
    expect(Object.keys(wanted).length).toBeGreaterThan(3);
    // `-e` resolves bare specifiers from the working directory: dist/, like the bundle.
    const run = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', CHECK, JSON.stringify(wanted)],
      { cwd: dist, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual([]);
  });
});
