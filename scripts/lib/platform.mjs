/**
 * The platform's own processes on one machine: ports, keys and the environment of each, built
 * from the stack's settings. Used by `npm start` (and anything else that runs the services).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { localDir, repoRoot, stackUrls } from './stack-config.mjs';

export const SERVICES = ['identity', 'challenge', 'wallet', 'media', 'moderation', 'notification'];
export const GATEWAY_PORT = 4700;
export const SERVICE_PORTS = {
  identity: 4701,
  challenge: 4702,
  wallet: 4703,
  media: 4704,
  moderation: 4705,
  notification: 4706,
};
export const publicUrl = `http://127.0.0.1:${GATEWAY_PORT}`;

/**
 * How a production bundle is run, here and in the images (Dockerfile CMD, compose). Node 24's
 * young generation grows to 32 MiB per semi-space, most of it empty when a service idles
 * (docs/adr/0078-production-bundles.md); at 2 MiB the garbage collector took a fifth of every
 * request's CPU under load. 4 MiB takes 10 to 30 % off each process's CPU per request for 1 to
 * 10 MiB more resident (docs/adr/0103-young-generation-sized-for-requests.md).
 */
export const BUNDLE_COMMAND = ['--max-semi-space-size=4', 'dist/index.js'];

/** The development RS256 key pair, made once per checkout in .local/keys (never committed). */
export function developmentKeys() {
  const dir = path.join(localDir, 'keys');
  const privatePath = path.join(dir, 'jwt-private.pem');
  const publicPath = path.join(dir, 'jwt-public.pem');
  if (!existsSync(privatePath) || !existsSync(publicPath)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    writeFileSync(privatePath, privateKey, { mode: 0o600 });
    writeFileSync(publicPath, publicKey);
  }
  return {
    privateKey: readFileSync(privatePath, 'utf8'),
    publicKey: readFileSync(publicPath, 'utf8'),
  };
}

/** A random secret made once per checkout in .local/keys (never committed). */
export function developmentSecret(name) {
  const file = path.join(localDir, 'keys', name);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8');
}

/**
 * Where the platform's processes listen and which data they use. `npm start` takes the defaults
 * (fixed ports, one database per service, topics without a prefix); a test or benchmark that
 * starts the same processes passes free ports, its own databases and a topic prefix.
 */
const defaultLayout = {
  gatewayPort: GATEWAY_PORT,
  ports: SERVICE_PORTS,
  databaseUrl: (service) => stackUrls().databaseUrl(service),
  topicPrefix: '',
  s3Bucket: 'challenge-media',
};

/** Environment of one subgraph, as its src/env.ts expects it. */
export function serviceEnv(service, layout = {}) {
  const { gatewayPort, ports, databaseUrl, topicPrefix, s3Bucket } = {
    ...defaultLayout,
    ...layout,
  };
  const origin = `http://127.0.0.1:${gatewayPort}`;
  const urls = stackUrls();
  const keys = developmentKeys();
  const env = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: String(ports[service]),
    DATABASE_URL: databaseUrl(service),
    REDIS_URL: urls.redisUrl,
    KAFKA_BROKERS: urls.kafkaBrokers.join(','),
    ...(topicPrefix ? { KAFKA_TOPIC_PREFIX: topicPrefix } : {}),
    JWT_PUBLIC_KEY: keys.publicKey,
    // The gateway's credential: /graphql serves only requests that carry it (docs/adr/0069).
    GATEWAY_SECRET: developmentSecret('gateway-secret'),
  };
  if (service === 'identity') {
    Object.assign(env, {
      JWT_PRIVATE_KEY: keys.privateKey,
      PUBLIC_ORIGIN: origin,
      AUTH_HASH_SECRET: developmentSecret('auth-hash-secret'),
      // Media's profile update after an avatar upload (docs/adr/0049) carries it.
      INTERNAL_API_TOKEN: developmentSecret('internal-api-token'),
    });
  }
  if (service === 'challenge') {
    Object.assign(env, {
      // The escrow hold: wallet's internal API, with the same shared secret wallet checks.
      WALLET_INTERNAL_URL: `http://127.0.0.1:${ports.wallet}`,
      INTERNAL_API_TOKEN: developmentSecret('internal-api-token'),
      // A challenge's public link (shareChallengeLink).
      PUBLIC_ORIGIN: origin,
    });
  }
  if (service === 'wallet') {
    Object.assign(env, {
      PUBLIC_ORIGIN: origin,
      INTERNAL_API_TOKEN: developmentSecret('internal-api-token'),
      // The local payment sandbox stands in for Mollie; its webhooks come back through the gateway.
      MOLLIE_API_KEY: urls.paymentSandbox.apiKey,
      MOLLIE_API_ENDPOINT: urls.paymentSandbox.apiUrl,
      MOLLIE_EXTRA_CA_FILE: urls.paymentSandbox.caFile,
      SEPA_DEBTOR_NAME: 'Challenge Platform B.V.',
      SEPA_DEBTOR_IBAN: 'NL91ABNA0417164300',
      SEPA_DEBTOR_BIC: 'ABNANL2A',
    });
  }
  if (service === 'media') {
    Object.assign(env, {
      S3_ENDPOINT: urls.s3.endpoint,
      S3_REGION: urls.s3.region,
      S3_ACCESS_KEY: urls.s3.accessKey,
      S3_SECRET_KEY: urls.s3.secretKey,
      S3_BUCKET: s3Bucket,
      // The video queue lives in Redis: a prefixed platform keeps its own.
      ...(topicPrefix ? { VIDEO_QUEUE_PREFIX: `${topicPrefix}media` } : {}),
      // The avatar of a multipart updateProfile is set through identity's internal API.
      IDENTITY_INTERNAL_URL: `http://127.0.0.1:${ports.identity}`,
      // Each completed proof upload is registered with challenge's internal API (ADR 71).
      CHALLENGE_INTERNAL_URL: `http://127.0.0.1:${ports.challenge}`,
      INTERNAL_API_TOKEN: developmentSecret('internal-api-token'),
    });
  }
  if (service === 'notification') {
    Object.assign(env, {
      SMTP_HOST: urls.smtp.host,
      SMTP_PORT: String(urls.smtp.port),
      MAIL_FROM: 'Challenge Platform <no-reply@challenge.local>',
      PUBLIC_ORIGIN: origin,
      NOTIFICATION_LINK_SECRET: developmentSecret('notification-link-secret'),
      // The demo admin (identity's demo seed) hears of overdue referee cases (docs/adr/0058).
      ADMIN_EMAILS: 'ada_admin@demo.challenge.local',
    });
  }
  return env;
}

export function gatewayEnv(layout = {}) {
  const { gatewayPort, ports } = { ...defaultLayout, ...layout };
  const urls = stackUrls();
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: String(gatewayPort),
    REDIS_URL: urls.redisUrl,
    JWT_PUBLIC_KEY: developmentKeys().publicKey,
    ...Object.fromEntries(
      SERVICES.map((service) => [
        `${service.toUpperCase()}_URL`,
        `http://127.0.0.1:${ports[service]}/graphql`,
      ]),
    ),
    // Sent with every request to a subgraph, which serves nothing without it (docs/adr/0069).
    GATEWAY_SECRET: developmentSecret('gateway-secret'),
    WEB_DIST_DIR: path.join(repoRoot, 'web', 'dist'),
    // Signed videos and thumbnails come from the store: pages preconnect to it (ADR 81).
    MEDIA_ORIGIN: urls.s3.endpoint,
    PUBLIC_ORIGIN: `http://127.0.0.1:${gatewayPort}`,
    TRUST_PROXY: 'loopback',
    // @apollo/gateway otherwise reports usage to Apollo and probes cloud metadata endpoints.
    APOLLO_TELEMETRY_DISABLED: 'true',
    // Loopback and private addresses pass the geofence in development whatever this says.
    GEOFENCE_ENABLED: 'true',
    GEOFENCE_ALLOW_PRIVATE: 'false',
    // Left at their defaults: CORS_ORIGINS (none), METRICS_TOKEN (none; loopback may scrape)
    // the RATE_LIMIT_* rate limits and the GRAPHQL_MAX_* query limits (gateway/README.md); set
    // in the shell, they reach the gateway (e.g. RATE_LIMIT_GRAPHQL=100000/1m for a load test).
  };
}
