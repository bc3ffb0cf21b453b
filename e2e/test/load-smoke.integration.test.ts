/**
 * The k6 scenarios of load-tests/ at their smoke profile (issue 21): each runs a few iterations
 * against the platform as `npm start` runs it (the production bundles, on free ports, with the
 * settings of a load run and the demo seed's accounts), and k6 must exit 0, i.e. every threshold
 * held (no 5xx, failed requests and checks within bounds, and after the money scenarios the
 * ledger's invariants). A changed operation or field breaks this test, not a load test nobody ran.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOAD_RUN_ENV, ensureClip, ensureK6 } from '../../scripts/lib/k6.mjs';
import {
  localDir,
  env as scriptEnv,
  repoRoot,
  stackUrls,
} from '../../scripts/lib/stack-config.mjs';
import { webDist } from '../support/browser.ts';
import {
  ONE_ADDRESS_LIMITS,
  bundleLauncher,
  startProcessPlatform,
  type ProcessPlatform,
} from '../support/processes.ts';

/** The scenarios written on load-tests/lib/common.js (they take PROFILE=smoke). */
const SCENARIOS = ['visitors', 'sign-in', 'money', 'referee', 'day'];

/** The wallet's reconciliation grace here, and the wait after a money scenario before its check. */
const GRACE_MS = '2000';

function k6Run(k6: string, scenario: string, env: string[]) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(
      k6,
      [
        'run',
        '--quiet',
        ...env.flatMap((pair) => ['-e', pair]),
        '-e',
        'PROFILE=smoke',
        '-e',
        'DEBUG=1',
        `load-tests/${scenario}.js`,
      ],
      {
        cwd: repoRoot,
        env: { PATH: scriptEnv.PATH, HOME: scriptEnv.HOME },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The demo seed of `npm start` (its staff sign in with their password) on this platform. */
function seedDemoUsers(platform: ProcessPlatform, file: string) {
  const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'src/demo-seed.ts', file], {
    cwd: path.join(repoRoot, 'services', 'identity'),
    env: {
      PATH: scriptEnv.PATH,
      HOME: scriptEnv.HOME,
      ...platform.envOf('identity'),
      LOG_LEVEL: 'warn',
    },
    encoding: 'utf8',
  });
  expect(seeded.status, `${seeded.stdout}${seeded.stderr}`).toBe(0);
}

describe('k6 scenarios, smoke profile', () => {
  let platform: ProcessPlatform;
  let k6: string;
  let dir: string;
  let env: string[];

  beforeAll(async () => {
    expect(existsSync(path.join(webDist, 'index.html')), 'build it: npm run build -w web').toBe(
      true,
    );
    k6 = ensureK6();
    dir = mkdtempSync(path.join(tmpdir(), 'load-smoke-'));
    const { RECONCILIATION_GRACE_MS: _grace, ...limits } = LOAD_RUN_ENV;
    platform = await startProcessPlatform(bundleLauncher(repoRoot), {
      limits: { ...ONE_ADDRESS_LIMITS, ...limits },
      env: (name, processEnv) =>
        name === 'wallet' ? { ...processEnv, RECONCILIATION_GRACE_MS: GRACE_MS } : processEnv,
    });
    const demoUsers = path.join(dir, 'demo-users.json');
    seedDemoUsers(platform, demoUsers);
    env = [
      `BASE_URL=${platform.origin}`,
      `INBOX_URL=${stackUrls().smtpCatcherHttp}`,
      `DEMO_USERS=${demoUsers}`,
      `CLIP=${ensureClip(path.join(localDir, 'load-tests', 'clip.mp4'))}`,
      `RECONCILIATION_GRACE_MS=${GRACE_MS}`,
    ];
  }, 600_000);
  afterAll(async () => {
    await platform?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(SCENARIOS)(
    '%s holds its thresholds',
    async (scenario) => {
      const { code, output } = await k6Run(k6, scenario, env);
      // DEBUG=1 makes a refused answer print itself: those lines first, then the summary's end.
      const refused = output.split('\n').filter((line) => line.includes('level=warning'));
      expect(code, [...refused.slice(0, 20), output.slice(-3_000)].join('\n')).toBe(0);
      expect(output).toContain('checks');
    },
    300_000,
  );
});
