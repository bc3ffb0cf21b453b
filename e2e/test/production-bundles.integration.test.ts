import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProductionTree } from '../../scripts/lib/production-tree.mjs';
import { repoRoot } from '../../scripts/lib/stack-config.mjs';
import {
  bundleLauncher,
  signUp,
  startProcessPlatform,
  type ProcessPlatform,
} from '../support/processes.ts';

/**
 * What ships (docs/adr/0078-production-bundles.md): each service's and the gateway's bundle
 * (dist/index.js, built by `turbo run build`), run by `node dist/index.js` from a folder that
 * holds nothing but the production dependencies, installed from the lockfile.
 */
const STATUS = 'status { success identifier }';
const DEV_TOOLS = [
  'tsx',
  'vitest',
  'prisma',
  'typescript',
  'esbuild',
  '@prisma/schema-engine-wasm',
];

let root: string;
let installSeconds: number;
let platform: ProcessPlatform | undefined;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'challenge-production-'));
  ({ installSeconds } = writeProductionTree(root));
  console.log(`npm install --omit=dev of the production tree: ${installSeconds.toFixed(0)} s`);
  platform = await startProcessPlatform(bundleLauncher(root));
}, 420_000);

afterAll(async () => {
  await platform?.stop();
  rmSync(root, { recursive: true, force: true });
}, 120_000);

describe('the production bundles, with the production dependencies alone', () => {
  it('installs exactly the locked versions, and no build or test tool', () => {
    const locked = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8'))
      .packages as Record<string, { version?: string; link?: boolean }>;
    const installed = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'))
      .packages as Record<string, { version?: string; link?: boolean }>;
    const differing = Object.entries(installed)
      .filter(([key, pkg]) => key.startsWith('node_modules/') && !pkg.link)
      .filter(([key, pkg]) => locked[key]?.version !== pkg.version)
      .map(([key, pkg]) => `${key}: ${pkg.version}, locked ${locked[key]?.version ?? 'nowhere'}`);
    expect(differing).toEqual([]);
    expect(DEV_TOOLS.filter((name) => existsSync(path.join(root, 'node_modules', name)))).toEqual(
      [],
    );
  });

  it('answers a signed-up user through the gateway: identity, notification (the code by e-mail), wallet, challenge and moderation', async () => {
    const { send, username, status } = await signUp(platform!);
    expect(status).toEqual({ success: true, identifier: 'ok' });
    // The wallet opens when wallet has consumed identity's UserRegistered.
    const answer = await eventually(async () => {
      const data = await send(`{
        getCurrentUserProfile { ${STATUS} profile { username } }
        getWallet { ${STATUS} wallet { availableAmount } }
        getDashboardChallenges { ${STATUS} runningChallengesCount }
        myReports { ${STATUS} }
      }`);
      if (!data.getWallet.status.success) throw new Error('no wallet yet');
      return data;
    });
    expect(answer.getCurrentUserProfile.profile.username).toBe(username);
    expect(answer.getWallet.wallet.availableAmount).toBe(0);
    expect(answer.getDashboardChallenges).toEqual({
      status: { success: true, identifier: 'ok' },
      runningChallengesCount: 0,
    });
    expect(answer.myReports.status.success).toBe(true);
  });

  it('prints no warning of Node (such as TimeoutNegativeWarning) and no stack trace', () => {
    for (const process of platform!.processes) expect(process.stderrText(), process.name).toBe('');
  });

  it('stops every process gracefully on SIGTERM', async () => {
    const stopping = platform!;
    platform = undefined;
    expect(await stopping.stop()).toEqual({
      gateway: 0,
      identity: 0,
      challenge: 0,
      wallet: 0,
      media: 0,
      moderation: 0,
      notification: 0,
    });
  });
});
