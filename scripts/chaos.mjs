/**
 * `npm run chaos`: the bank test with faults (e2e/test/chaos.integration.test.ts, ADR 91) for
 * longer than `npm test` runs it. Starts the local stack when needed, builds the bundles, then
 * runs the test file alone with its options as environment variables:
 *
 *   npm run chaos -- --minutes 30 [--users 10] [--every-ms 5000] [--kafka private|shared]
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bootstrap } from './lib/bootstrap.mjs';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string' },
    users: { type: 'string' },
    'every-ms': { type: 'string' },
    kafka: { type: 'string' },
  },
});

await bootstrap();
const { repoRoot } = await import('./lib/stack-config.mjs');
const { ensureStack } = await import('./lib/stack/index.mjs');
await ensureStack({ quiet: true });
const built = spawnSync(
  'npx',
  ['turbo', 'run', 'build', '--filter=@challenge/e2e...', '--output-logs=errors-only'],
  { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
);
if (built.status !== 0) process.exit(built.status ?? 1);

const env = { ...process.env };
const set = (name, value) => {
  if (value !== undefined) env[name] = String(value);
};
set('CHAOS_MINUTES', values.minutes);
set('CHAOS_USERS', values.users);
set('CHAOS_EVERY_MS', values['every-ms']);
set('CHAOS_KAFKA', values.kafka);
const result = spawnSync('npx', ['vitest', 'run', 'test/chaos.integration.test.ts'], {
  cwd: path.join(repoRoot, 'e2e'),
  stdio: 'inherit',
  env,
});
process.exit(result.status ?? 1);
