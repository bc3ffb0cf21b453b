/** The payment sandbox of the local stack (scripts/payment-sandbox.mjs): checkout and control API on 127.0.0.1:38090, the Mollie API over HTTPS on 127.0.0.1:38091. */
import path from 'node:path';
import { paymentSandbox as cfg, repoRoot } from '../stack-config.mjs';
import {
  aptInstall,
  commandPath,
  httpGet,
  portOpen,
  serviceStatus,
  spawnDetached,
  startService,
  stopService,
} from './helpers.mjs';

const name = 'payments';
const script = path.join(repoRoot, 'scripts', 'payment-sandbox.mjs');
export const address = `http://${cfg.host}:${cfg.port} (API https://${cfg.host}:${cfg.tlsPort}/v2/)`;

/** Plain Node; openssl makes its TLS certificate on the first start. */
export async function ensureInstalled() {
  if (!commandPath('openssl')) await aptInstall(['openssl']);
}

export async function isRunning() {
  try {
    const res = await httpGet(`http://${cfg.host}:${cfg.port}/healthz`);
    return (
      res.status === 200 &&
      JSON.parse(res.body).service === 'payment-sandbox' &&
      (await portOpen(cfg.tlsPort))
    );
  } catch {
    return false;
  }
}

export function start() {
  return startService({
    name,
    match: script,
    ports: [cfg.port, cfg.tlsPort],
    healthy: isRunning,
    timeoutMs: 15_000,
    launch: () => spawnDetached(name, process.execPath, [script], { cwd: repoRoot }),
  });
}

export const stop = () => stopService(name, { match: script });
export const status = () => serviceStatus({ name, address, healthy: isRunning, match: script });
