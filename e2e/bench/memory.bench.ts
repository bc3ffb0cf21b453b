/**
 * Resident memory of every process, before and after the production bundles, side by side in
 * one run (docs/adr/0078-production-bundles.md): the platform as it ran before (each process
 * `node --import tsx src/index.ts` in the repository, on the machine's Node 20) and as it ships
 * (`node dist/index.js` in a folder with the production dependencies alone, on Node 24), both
 * against the local stack with their own databases and topics.
 *
 * For each process: RSS once idle (after SETTLE_MS with nothing to do), the highest RSS seen
 * while LOAD_REQUESTS signed-in queries (identity, wallet, challenge, moderation) go through the
 * gateway, LOAD_CONCURRENCY at a time, and its peak (VmHWM). tsx's transform runs in a child
 * esbuild process: the "with children" column counts it. Goal: under 150 MiB idle each.
 *
 * `npm run bench -- memory`; BEFORE_NODE names the old Node (default: the first `node` on PATH
 * that is Node 20), BEFORE_CHECKOUT the checkout whose sources the "before" side runs (default
 * this one; for the figures of the ADR a worktree of the commit before the bundles, with its own
 * `npm ci` and `turbo run generate`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeProductionTree } from '../../scripts/lib/production-tree.mjs';
import { env, repoRoot } from '../../scripts/lib/stack-config.mjs';
import globalSetup from '../../packages/testing/src/global-setup.ts';
import {
  bundleLauncher,
  residentMemory,
  signUp,
  startProcessPlatform,
  tsxLauncher,
  type ProcessPlatform,
} from '../support/processes.ts';

const SETTLE_MS = 45_000;
const LOAD_REQUESTS = 1_500;
const LOAD_CONCURRENCY = 10;
const QUERY = `{
  getCurrentUserProfile { status { success } profile { username } }
  getWallet { status { success } wallet { availableAmount } }
  getDashboardChallenges { status { success } runningChallengesCount }
  myReports { status { success } }
}`;

/* eslint-disable no-restricted-properties -- the benchmark's own knobs */
const beforeCheckout = process.env.BEFORE_CHECKOUT ?? repoRoot;
const givenBeforeNode = process.env.BEFORE_NODE;
/* eslint-enable no-restricted-properties */

function findBeforeNode(): string | null {
  if (givenBeforeNode) return givenBeforeNode;
  for (const dir of env.PATH.split(path.delimiter)) {
    const candidate = path.join(dir, 'node');
    if (!existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (version.startsWith('v20.')) return candidate;
  }
  return null;
}

type Figures = Record<string, { idle: number; idleTree: number; loaded: number; peak: number }>;

async function measure(label: string, platform: ProcessPlatform): Promise<Figures> {
  const figures: Figures = {};
  for (const { name, pid } of platform.processes) {
    const memory = residentMemory(pid);
    figures[name] = { idle: memory.rss, idleTree: memory.tree, loaded: memory.rss, peak: 0 };
  }
  const { send } = await signUp(platform);
  let sent = 0;
  let failed = 0;
  const sampler = setInterval(() => {
    for (const { name, pid } of platform.processes) {
      const entry = figures[name]!;
      entry.loaded = Math.max(entry.loaded, residentMemory(pid).rss);
    }
  }, 250);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: LOAD_CONCURRENCY }, async () => {
      while (sent < LOAD_REQUESTS) {
        sent += 1;
        const data = await send(QUERY).catch(() => null);
        if (!data?.getCurrentUserProfile?.status?.success) failed += 1;
      }
    }),
  );
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  for (const { name, pid } of platform.processes) {
    const entry = figures[name]!;
    const memory = residentMemory(pid);
    entry.loaded = Math.max(entry.loaded, memory.rss);
    entry.peak = memory.peak;
  }
  console.log(
    `${label}: ${LOAD_REQUESTS} requests in ${seconds.toFixed(1)} s (${(LOAD_REQUESTS / seconds).toFixed(0)}/s), ${failed} failed`,
  );
  return figures;
}

await globalSetup();
const beforeNode = findBeforeNode();
if (!beforeNode) {
  console.error('No Node 20 found on PATH for the "before" side: set BEFORE_NODE.');
  process.exit(1);
}
const build = spawnSync(
  'npx',
  ['turbo', 'run', 'build', '--filter=./services/*', '--filter=@challenge/gateway'],
  { cwd: repoRoot, stdio: 'ignore' },
);
if (build.status !== 0) throw new Error('building the bundles failed (npx turbo run build)');
const root = mkdtempSync(path.join(os.tmpdir(), 'challenge-memory-'));
const platforms: ProcessPlatform[] = [];
try {
  const { installSeconds } = writeProductionTree(root);
  console.log(`production tree: npm install --omit=dev in ${installSeconds.toFixed(0)} s`);
  const before = await startProcessPlatform(tsxLauncher(beforeNode, beforeCheckout));
  platforms.push(before);
  const after = await startProcessPlatform(bundleLauncher(root));
  platforms.push(after);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const beforeVersion = spawnSync(beforeNode, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const beforeFigures = await measure(
    `before (tsx, Node ${beforeVersion}, ${path.relative(repoRoot, beforeCheckout) || 'this checkout'})`,
    before,
  );
  const afterFigures = await measure(`after (bundle, Node ${process.versions.node})`, after);
  console.log(
    '\nMiB                | before: idle (with children) / loaded / peak | after: idle / loaded / peak',
  );
  for (const name of Object.keys(afterFigures)) {
    const b = beforeFigures[name]!;
    const a = afterFigures[name]!;
    console.log(
      `${name.padEnd(18)} | ${`${b.idle} (${b.idleTree}) / ${b.loaded} / ${b.peak}`.padEnd(44)} | ${a.idle} / ${a.loaded} / ${a.peak}`,
    );
  }
  const over = Object.entries(afterFigures).filter(([, f]) => f.idle >= 150);
  console.log(
    over.length
      ? `\nover 150 MiB idle: ${over.map(([name]) => name).join(', ')}`
      : '\nevery bundle under 150 MiB idle',
  );
} finally {
  await Promise.all(platforms.map((platform) => platform.stop()));
  rmSync(root, { recursive: true, force: true });
}
