/**
 * `npm test`: every test of every workspace against the real local stack, on a fresh machine too.
 * Installs dependencies, provisions and starts the stack, generates Prisma clients, runs each
 * workspace's tests through Turborepo, then prints one line that sums them: `N passed, N failed`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bootstrap } from './lib/bootstrap.mjs';

await bootstrap();
const { repoRoot } = await import('./lib/stack-config.mjs');
const { ensureStack } = await import('./lib/stack/index.mjs');

const started = Date.now();
await ensureStack();

const workspaces = JSON.parse(
  readFileSync(path.join(repoRoot, 'package.json'), 'utf8'),
).workspaces.flatMap((pattern) => {
  if (!pattern.endsWith('/*')) return [pattern];
  const dir = path.join(repoRoot, pattern.slice(0, -2));
  return spawnSync('ls', [dir], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map((name) => `${pattern.slice(0, -2)}/${name}`);
});
const reportOf = (workspace) => path.join(repoRoot, workspace, 'test-results', 'vitest.json');
for (const workspace of workspaces) rmSync(reportOf(workspace), { force: true });

const turbo = spawnSync(
  'npx',
  [
    'turbo',
    'run',
    'test',
    '--concurrency=2',
    '--continue',
    '--output-logs=full',
    ...process.argv.slice(2),
  ],
  {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '1', TURBO_TELEMETRY_DISABLED: '1' },
  },
);

/** `workspace › file › test: first lines of the message` for each failed test of a report. */
function failuresOf(workspace, result) {
  return result.testResults.flatMap((file) => {
    const where = `${workspace}/${path.relative(path.join(repoRoot, workspace), file.name)}`;
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    // A file that failed outside its tests (an import, a hook) has its message on the file.
    if (!failed.length && file.status === 'failed') return [`  ${where}: ${excerpt(file.message)}`];
    return failed.map(
      (test) => `  ${where} › ${test.fullName}: ${excerpt(test.failureMessages?.[0])}`,
    );
  });
}

function excerpt(message = '') {
  // eslint-disable-next-line no-control-regex -- the reporter keeps the terminal's colour codes
  const lines = message.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const text = lines.filter((line) => !line.trim().startsWith('at ')).slice(0, 4);
  const where = lines.find(
    (line) => line.trim().startsWith('at ') && !line.includes('node_modules'),
  );
  return [...text, ...(where ? [where.trim()] : [])].join('\n      ').slice(0, 1200);
}

const failures = [];
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
console.log('\nTests per workspace:');
for (const workspace of workspaces) {
  const report = reportOf(workspace);
  if (!existsSync(report)) {
    if (existsSync(path.join(repoRoot, workspace, 'vitest.config.ts'))) missing.push(workspace);
    continue;
  }
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  skipped += result.numPendingTests + (result.numTodoTests ?? 0);
  console.log(
    `  ${workspace.padEnd(24)} ${result.numPassedTests} passed, ${result.numFailedTests} failed`,
  );
  failures.push(...failuresOf(workspace, result));
}
for (const workspace of missing)
  console.log(`  ${workspace.padEnd(24)} no report: its test run did not finish`);
// The failed tests by name, with the start of their message: the run's own output is long (and
// a CI log may keep only its end), so the summary says which test failed and why.
if (failures.length) console.log(`\nFailed tests:\n${failures.join('\n')}`);
console.log(`Total time ${((Date.now() - started) / 1000).toFixed(0)}s`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(turbo.status !== 0 || failed > 0 || missing.length > 0 ? 1 : 0);
