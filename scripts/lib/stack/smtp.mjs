/** The SMTP catcher of the local stack (scripts/smtp-catcher.mjs): SMTP on 127.0.0.1:32525, inbox and API on 127.0.0.1:38025. */
import { createRequire } from 'node:module';
import path from 'node:path';
import { repoRoot, smtp as cfg } from '../stack-config.mjs';
import {
  httpGet,
  portOpen,
  serviceStatus,
  spawnDetached,
  startService,
  stopService,
} from './helpers.mjs';

const name = 'smtp';
const script = path.join(repoRoot, 'scripts', 'smtp-catcher.mjs');
export const address = `${cfg.host}:${cfg.port} (inbox http://${cfg.host}:${cfg.httpPort})`;

export async function ensureInstalled() {
  const require = createRequire(script);
  for (const pkg of ['smtp-server', 'postal-mime']) {
    try {
      require.resolve(pkg);
    } catch {
      throw new Error(
        `smtp: the npm package ${pkg} is missing; run npm install at the repository root`,
      );
    }
  }
}

export async function isRunning() {
  try {
    const res = await httpGet(`http://${cfg.host}:${cfg.httpPort}/healthz`);
    return (
      res.status === 200 &&
      JSON.parse(res.body).service === 'smtp-catcher' &&
      (await portOpen(cfg.port))
    );
  } catch {
    return false;
  }
}

export function start() {
  return startService({
    name,
    match: script,
    ports: [cfg.port, cfg.httpPort],
    healthy: isRunning,
    timeoutMs: 15_000,
    launch: () => spawnDetached(name, process.execPath, [script], { cwd: repoRoot }),
  });
}

export const stop = () => stopService(name, { match: script });
export const status = () => serviceStatus({ name, address, healthy: isRunning, match: script });
