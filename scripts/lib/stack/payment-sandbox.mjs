/** The payment sandbox of the local stack (scripts/payment-sandbox.mjs): checkout and control API on 127.0.0.1:38090, the Mollie API over HTTPS on 127.0.0.1:38091. */
import path from 'node:path';
import { paymentSandbox as cfg, repoRoot } from '../stack-config.mjs';
import { aptInstall, commandPath, nodeScriptService } from './helpers.mjs';

export const address = `http://${cfg.host}:${cfg.port} (API https://${cfg.host}:${cfg.tlsPort}/v2/)`;

/** Plain Node; openssl makes its TLS certificate on the first start. */
export async function ensureInstalled() {
  if (!commandPath('openssl')) await aptInstall(['openssl']);
}

export const { isRunning, start, stop, status } = nodeScriptService({
  name: 'payments',
  script: path.join(repoRoot, 'scripts', 'payment-sandbox.mjs'),
  address,
  healthUrl: `http://${cfg.host}:${cfg.port}/healthz`,
  service: 'payment-sandbox',
  ports: [cfg.port, cfg.tlsPort],
});
