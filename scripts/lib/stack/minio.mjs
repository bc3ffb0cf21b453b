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
const versionMarker = `${binary}.version`;
export const address = `${cfg.host}:${cfg.port}`;

function installedVersion() {
  if (!fs.existsSync(binary)) return null;
  // A binary without a marker (built by hand with the same command) is accepted as is.
  return fs.existsSync(versionMarker) ? fs.readFileSync(versionMarker, 'utf8').trim() : cfg.version;
}

export async function ensureInstalled() {
  if (installedVersion() === cfg.version) return;
  if (!commandPath('go'))
    throw new Error(
      `minio: Go is needed to build MinIO (go install ${cfg.module}@${cfg.version}); install Go first`,
    );
  ensureDir(binDir);
  await run('go', ['list', '-m', `${cfg.module}@${cfg.version}`], {
    logName: 'minio-install',
  }).catch((err) => {
    throw new Error(
      `${err.message}\nThe Go module proxy does not serve ${cfg.module}@${cfg.version}. It serves semantic and pseudo-versions only (not MinIO's RELEASE.* tags): pin one in scripts/lib/stack-config.mjs (\`go list -m ${cfg.module}@latest\` names the newest).`,
    );
  });
  reporter.say(
    `minio     building ${cfg.module}@${cfg.version} with go install (minutes the first time; log: ${logFile('minio-install')})`,
  );
  await run('go', ['install', `${cfg.module}@${cfg.version}`], {
    env: { GOBIN: binDir, GOFLAGS: '-trimpath' },
    logName: 'minio-install',
  });
  fs.writeFileSync(versionMarker, `${cfg.version}\n`);
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
