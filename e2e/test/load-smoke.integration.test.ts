/**
 * The k6 scenarios of load-tests/ at their smoke profile (issue 21): each runs a few iterations
 * against the platform as `npm start` runs it (the production bundles, on free ports), and k6
 * must exit 0, i.e. every threshold held (no 5xx, failed requests and checks within bounds).
 * A changed operation or field breaks this test, not a load test nobody ran.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureK6 } from '../../scripts/lib/k6.mjs';
import { env as scriptEnv, repoRoot } from '../../scripts/lib/stack-config.mjs';
import { webDist } from '../support/browser.ts';
import {
  bundleLauncher,
  startProcessPlatform,
  type ProcessPlatform,
} from '../support/processes.ts';

/** The scenarios written on load-tests/lib/common.js (they take PROFILE=smoke). */
const SCENARIOS = ['visitors'];

function k6Run(k6: string, scenario: string, baseUrl: string) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(
      k6,
      [
        'run',
        '--quiet',
        '-e',
        `BASE_URL=${baseUrl}`,
        '-e',
        'PROFILE=smoke',
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

describe('k6 scenarios, smoke profile', () => {
  let platform: ProcessPlatform;
  let k6: string;

  beforeAll(async () => {
    expect(existsSync(path.join(webDist, 'index.html')), 'build it: npm run build -w web').toBe(
      true,
    );
    k6 = ensureK6();
    platform = await startProcessPlatform(bundleLauncher(repoRoot));
  }, 600_000);
  afterAll(() => platform?.stop());

  it.each(SCENARIOS)(
    '%s holds its thresholds',
    async (scenario) => {
      const { code, output } = await k6Run(k6, scenario, platform.origin);
      expect(code, output.slice(-3_000)).toBe(0);
      expect(output).toContain('checks');
    },
    300_000,
  );
});
