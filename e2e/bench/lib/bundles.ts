import { spawnSync } from 'node:child_process';

/** Builds the production bundles of every service and the gateway in a checkout (turbo caches them). */
export function buildBundles(checkout: string): void {
  const result = spawnSync(
    'npx',
    [
      'turbo',
      'run',
      'build',
      '--filter=./services/*',
      '--filter=@challenge/gateway',
      '--output-logs=errors-only',
    ],
    { cwd: checkout, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`building the bundles in ${checkout} failed`);
}
