/**
 * `npm run bench`: benchmarks that print figures (speed and memory targets are checked here, not
 * in tests). Starts the local stack when needed, then runs each benchmark file in turn;
 * `npm run bench -- social money` runs only the files whose names start with those words.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { bootstrap } from './lib/bootstrap.mjs';

await bootstrap();
const { repoRoot } = await import('./lib/stack-config.mjs');
const { ensureStack } = await import('./lib/stack/index.mjs');
await ensureStack({ quiet: true });
spawnSync('npx', ['turbo', 'run', 'generate', '--output-logs=errors-only'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});

const benchDir = path.join(repoRoot, 'e2e', 'bench');
let failed = 0;
const only = process.argv.slice(2);
const files = readdirSync(benchDir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((word) => name.startsWith(word)));
if (files.length === 0) {
  console.error(`no benchmark matches ${only.join(', ')}`);
  process.exit(1);
}
for (const file of files) {
  console.log(`\n== ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(benchDir, file)], {
    cwd: path.join(repoRoot, 'e2e'),
    stdio: 'inherit',
  });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
