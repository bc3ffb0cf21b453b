/**
 * k6 for the load tests, installed the way deploy-check installs it: `go install` of the pinned
 * version into the tools' cache (${XDG_CACHE_HOME:-~/.cache}/challenge-platform/bin).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { env } from './stack-config.mjs';

export const K6_VERSION = 'v1.8.1';
const cacheHome = env.XDG_CACHE_HOME || path.join(env.HOME, '.cache');
const bin = path.join(cacheHome, 'challenge-platform', 'bin');
export const k6Path = path.join(bin, 'k6');

function installedVersion() {
  if (!existsSync(k6Path)) return null;
  const out = spawnSync(k6Path, ['version'], { encoding: 'utf8' }).stdout ?? '';
  return /k6 (v\d+\.\d+\.\d+)/.exec(out)?.[1] ?? null;
}

/** The path of k6 K6_VERSION, built with `go install` when missing; throws without Go. */
export function ensureK6() {
  if (installedVersion() === K6_VERSION) return k6Path;
  mkdirSync(bin, { recursive: true });
  const result = spawnSync('go', ['install', `go.k6.io/k6@${K6_VERSION}`], {
    stdio: 'inherit',
    env: { PATH: env.PATH, HOME: env.HOME, GOBIN: bin },
  });
  if (result.error || result.status !== 0 || installedVersion() !== K6_VERSION) {
    throw new Error(`could not install k6 ${K6_VERSION} (go install go.k6.io/k6@${K6_VERSION})`);
  }
  return k6Path;
}
