import { readFileSync } from 'node:fs';
import {
  createLifecycle,
  createLogger,
  createTokenVerifier,
  startTracing,
} from '@challenge/kit';
import { buildGateway } from './app.ts';
import { graphqlLimitsFromEnv, rateLimitsFromEnv, readEnv } from './env.ts';
import { createGatewayRedis } from './rate-limit.ts';

const env = readEnv();
const logger = createLogger('gateway', env.LOG_LEVEL);
const lifecycle = createLifecycle(logger, env.SHUTDOWN_TIMEOUT_MS);
lifecycle.installSignalHandlers();
// The public edge: it keeps a browser's trace id but decides the sampling itself (docs/adr/0080).
const tracing = startTracing('gateway', env, true);
lifecycle.onStop('tracing', () => tracing.shutdown());
const redis = createGatewayRedis(env.REDIS_URL, logger);
lifecycle.onStop('redis', async () => {
  await redis.quit();
});

let supergraphSdl: string;
try {
  supergraphSdl = readFileSync(new URL('../supergraph.graphql', import.meta.url), 'utf8');
} catch {
  logger.fatal(
    'gateway/supergraph.graphql is missing: run `npm run build -w @challenge/gateway` first',
  );
  process.exit(1);
}

const gateway = await buildGateway({
  supergraphSdl,
  subgraphUrls: {
    identity: env.IDENTITY_URL,
    challenge: env.CHALLENGE_URL,
    wallet: env.WALLET_URL,
    media: env.MEDIA_URL,
    moderation: env.MODERATION_URL,
    notification: env.NOTIFICATION_URL,
  },
  gatewaySecret: env.GATEWAY_SECRET,
  verifier: await createTokenVerifier({ publicKeyPem: env.JWT_PUBLIC_KEY, issuer: env.JWT_ISSUER }),
  logger,
  lifecycle,
  redis,
  publicOrigin: env.PUBLIC_ORIGIN,
  trustProxy: env.TRUST_PROXY,
  webDistDir: env.WEB_DIST_DIR,
  ...(env.MEDIA_ORIGIN ? { mediaOrigin: env.MEDIA_ORIGIN } : {}),
  production: env.NODE_ENV === 'production',
  geofence: {
    enabled: env.GEOFENCE_ENABLED,
    allowPrivate: env.NODE_ENV !== 'production' || env.GEOFENCE_ALLOW_PRIVATE,
  },
  rateLimits: rateLimitsFromEnv(env),
  graphqlRateLimit: env.RATE_LIMIT_GRAPHQL,
  graphqlUserRateLimit: env.RATE_LIMIT_GRAPHQL_USER,
  graphqlAddressCeiling: env.RATE_LIMIT_GRAPHQL_ADDRESS_CEILING,
  graphqlLimits: graphqlLimitsFromEnv(env),
  webhookRateLimit: env.RATE_LIMIT_PAYMENT_WEBHOOK,
  uploadRateLimit: env.RATE_LIMIT_UPLOADS,
  rateLimitKeyPrefix: env.RATE_LIMIT_KEY_PREFIX,
  metricsToken: env.METRICS_TOKEN,
  corsOrigins: env.CORS_ORIGINS,
});
await gateway.listen(env.PORT, env.HOST);
