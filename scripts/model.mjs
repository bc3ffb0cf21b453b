/**
 * `npm run model`: the model-based test of the money (e2e/test/model.integration.test.ts, ADR 79)
 * for longer than `npm test` runs it. Starts the local stack when needed, then runs the test file
 * alone with its options as environment variables:
 *
 *   npm run model -- --runs 200 [--commands 80]   random runs (60 commands at most unless
 *                                                 --commands) after the fixed runs
 *   npm run model -- --verbose                   every run's commands and answers
 *   MODEL_SEED=.. MODEL_PATH=.. MODEL_REPLAY=.. npm run model   replays a failure it printed
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bootstrap } from './lib/bootstrap.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string' },
    commands: { type: 'string' },
    seed: { type: 'string' },
    path: { type: 'string' },
    replay: { type: 'string' },
    verbose: { type: 'boolean' },
  },
});

await bootstrap();
const { repoRoot } = await import('./lib/stack-config.mjs');
const { ensureStack } = await import('./lib/stack/index.mjs');
await ensureStack({ quiet: true });
const turbo = (args) =>
  spawnSync('npx', ['turbo', 'run', ...args, '--output-logs=errors-only'], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
turbo(['build', '--filter=@challenge/e2e...']);

const env = { ...process.env };
const set = (name, value) => {
  if (value !== undefined) env[name] = String(value);
};
set('MODEL_RUNS', values.runs);
set('MODEL_COMMANDS', values.commands ?? 60);
set('MODEL_SEED', values.seed);
set('MODEL_PATH', values.path);
set('MODEL_REPLAY', values.replay);
if (values.verbose) env.MODEL_VERBOSE = '1';
const result = spawnSync('npx', ['vitest', 'run', 'test/model.integration.test.ts'], {
  cwd: path.join(repoRoot, 'e2e'),
  stdio: 'inherit',
  env,
});
process.exit(result.status ?? 1);
