/** The payment sandbox of the local stack (scripts/payment-sandbox.mjs): checkout and control API on 127.0.0.1:38090, the Mollie API over HTTPS on 127.0.0.1:38091. */
import fs from 'node:fs';
import path from 'node:path';
import { paymentSandbox as cfg, repoRoot, stackUrls } from '../stack-config.mjs';
import { aptInstall, commandPath, ensureDir, httpGet, nodeScriptService } from './helpers.mjs';

export const address = `http://${cfg.host}:${cfg.port} (API https://${cfg.host}:${cfg.tlsPort}/v2/)`;

/** Plain Node; openssl makes its TLS certificate on the first start. */
export async function ensureInstalled() {
  if (!commandPath('openssl')) await aptInstall(['openssl']);
}

const service = nodeScriptService({
  name: 'payments',
  script: path.join(repoRoot, 'scripts', 'payment-sandbox.mjs'),
  address,
  healthUrl: `http://${cfg.host}:${cfg.port}/healthz`,
  service: 'payment-sandbox',
  ports: [cfg.port, cfg.tlsPort],
});

export const { start, stop, status } = service;

/**
 * A sandbox already running may have been started by a clone whose cache is elsewhere (another
 * HOME, with a certificate of its own): keep the certificate it serves, so this clone's wallet
 * trusts it.
 */
export async function isRunning() {
  if (!(await service.isRunning())) return false;
  const { caFile } = stackUrls().paymentSandbox;
  const answer = await httpGet(`http://${cfg.host}:${cfg.port}/certificate.pem`);
  if (answer.status !== 200 || !answer.body.includes('BEGIN CERTIFICATE')) return false;
  const stored = fs.existsSync(caFile) ? fs.readFileSync(caFile, 'utf8') : null;
  if (stored === answer.body) return true;
  // Never overwrite the certificate of a key pair this cache made: a later start would serve
  // a key with someone else's certificate.
  if (fs.existsSync(path.join(path.dirname(caFile), 'key.pem')))
    throw new Error(
      `payments: the payment sandbox on port ${cfg.port} was started with another certificate (another HOME or XDG_CACHE_HOME); stop it first (npm run stack -- down in the checkout that started it)`,
    );
  ensureDir(path.dirname(caFile));
  fs.writeFileSync(caFile, answer.body);
  return true;
}
