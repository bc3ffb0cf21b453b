/** MinIO of the local stack: built once with `go install` into the user cache, serving .local/minio/data on 127.0.0.1:39000. */
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir, localDir, minio as cfg } from '../stack-config.mjs';
import {
  commandPath,
  ensureDir,
  httpGet,
  logFile,
  reporter,
  run,
  serviceStatus,
  spawnDetached,
  startService,
  stopService,
} from './helpers.mjs';

const name = 'minio';
const binDir = path.join(cacheDir, 'bin');
export const binary = path.join(binDir, 'minio');
const releaseMarker = `${binary}.release`;
export const address = `${cfg.host}:${cfg.port}`;

function installedRelease() {
  if (!fs.existsSync(binary)) return null;
  // A binary without a marker (built by hand with the same command) is accepted as is.
  return fs.existsSync(releaseMarker) ? fs.readFileSync(releaseMarker, 'utf8').trim() : cfg.release;
}

export async function ensureInstalled() {
  if (installedRelease() === cfg.release) return;
  if (!commandPath('go'))
    throw new Error(
      `minio: Go is needed to build MinIO (go install ${cfg.module}@${cfg.release}); install Go first`,
    );
  ensureDir(binDir);
  reporter.say(
    `minio     building ${cfg.module}@${cfg.release} with go install (minutes the first time; log: ${logFile('minio-install')})`,
  );
  await run('go', ['install', `${cfg.module}@${cfg.release}`], {
    env: { GOBIN: binDir, GOFLAGS: '-trimpath' },
    logName: 'minio-install',
  });
  fs.writeFileSync(releaseMarker, `${cfg.release}\n`);
}

export async function isRunning() {
  try {
    return (await httpGet(`http://${address}/minio/health/live`)).status === 200;
  } catch {
    return false;
  }
}

export function start() {
  return startService({
    name,
    match: binary,
    ports: [cfg.port, cfg.consolePort],
    healthy: isRunning,
    timeoutMs: 30_000,
    launch: () => {
      const data = ensureDir(path.join(localDir, 'minio', 'data'));
      const args = [
        'server',
        data,
        '--address',
        address,
        '--console-address',
        `${cfg.host}:${cfg.consolePort}`,
      ];
      const env = {
        MINIO_ROOT_USER: cfg.user,
        MINIO_ROOT_PASSWORD: cfg.password,
        MINIO_UPDATE: 'off',
      };
      return spawnDetached(name, binary, args, { env, cwd: localDir });
    },
  });
}

export const stop = () => stopService(name, { match: binary });
export const status = () => serviceStatus({ name, address, healthy: isRunning, match: binary });
