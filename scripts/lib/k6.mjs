/**
 * k6 for the load tests, installed the way deploy-check installs it: `go install` of the pinned
 * version into the tools' cache (${XDG_CACHE_HOME:-~/.cache}/challenge-platform/bin).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
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

/**
 * The platform's settings for a load run (`env $(npm run -s load -- --platform-env) npm start`;
 * the smoke test gives them to its own platform). Every virtual user sends from one address and
 * signs in many times, so the per-address, per-user and sign-in limits are raised for the run,
 * as configuration, never bypassed; and the wallet's reconciliation judges mismatches older than
 * 10 s instead of 15 min, so the money scenarios' check after the run covers the run itself.
 */
export const LOAD_RUN_ENV = Object.freeze({
  RATE_LIMIT_GRAPHQL: '100000/1m',
  RATE_LIMIT_GRAPHQL_USER: '100000/1m',
  RATE_LIMIT_GRAPHQL_ADDRESS_CEILING: '100000/1m',
  RATE_LIMIT_REQUEST_LOGIN_LINK: '-/-/1m',
  RATE_LIMIT_VERIFY_LOGIN_CODE: '-/-/1m',
  RATE_LIMIT_VERIFY_LOGIN_LINK: '-/-/1m',
  RATE_LIMIT_LOGIN: '-/-/1m',
  RATE_LIMIT_VERIFY_USER: '-/-/1m',
  RATE_LIMIT_UPLOADS: '100000/1m',
  RATE_LIMIT_PAYMENT_WEBHOOK: '100000/1m',
  RECONCILIATION_GRACE_MS: '10000',
});

/**
 * The proof video the money scenarios upload: a real 1 s, 160x120 MP4 with sound, made once by
 * ffmpeg (as the model test makes its clip) at `file`; returns `file`.
 */
export function ensureClip(file) {
  if (existsSync(file)) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.mp4`;
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
      ...['-shortest', partial],
    ],
    { stdio: 'inherit' },
  );
  if (result.error || result.status !== 0) throw new Error('ffmpeg could not make the test clip');
  renameSync(partial, file);
  return file;
}
