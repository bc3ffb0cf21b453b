import {
  createIdempotentProducer,
  createKafka,
  ensureTopics,
  pingKafka,
  type Admin,
  type Kafka,
  type Producer,
} from '@challenge/events';
import type { Logger } from 'pino';
import { createTokenVerifier, type TokenVerifier } from './auth.ts';
import { kafkaSecurity } from './config.ts';
import { acceptedGatewaySecrets } from './gateway-credential.ts';
import { createLifecycle, type Lifecycle } from './lifecycle.ts';
import { createLogger } from './logger.ts';
import { createRedis, pingRedis, type Redis } from './redis.ts';
import { startTracing, tracerFor, type Tracer } from './tracing.ts';

/**
 * The clients every service holds: logger, lifecycle, Redis, Kafka (admin and the idempotent
 * producer) and the token verifier. Each registers its close on the lifecycle, so a stop closes
 * them after the HTTP server and consumers that a service registers later.
 */
export interface RuntimeEnv {
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
  REDIS_URL: string;
  KAFKA_BROKERS: string[];
  KAFKA_TOPIC_PREFIX: string;
  KAFKA_SSL?: boolean;
  KAFKA_SSL_CA?: string;
  KAFKA_SASL_MECHANISM?: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  KAFKA_SASL_USERNAME?: string;
  KAFKA_SASL_PASSWORD?: string;
  JWT_PUBLIC_KEY: string;
  JWT_ISSUER: string;
  /** The gateway's credential (docs/adr/0069), and the previous one during a rotation. */
  GATEWAY_SECRET: string;
  GATEWAY_SECRET_PREVIOUS?: string;
  /** Traces (docs/adr/0080): off without an endpoint. */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_TRACES_SAMPLE_RATIO?: number;
}

export interface ServiceRuntime {
  name: string;
  logger: Logger;
  lifecycle: Lifecycle;
  /** The service's tracer (a no-op one while tracing is off). */
  tracer: Tracer;
  redis: Redis;
  kafka: Kafka;
  admin: Admin;
  producer: Producer;
  topicPrefix: string;
  verifier: TokenVerifier;
  /** Prefix of the token-state keys in Redis (kit's access.ts): empty but in tests. */
  authStatePrefix: string;
  /** The gateway secrets the subgraph accepts (docs/adr/0069). */
  gatewaySecrets: string[];
  /** Readiness probes for the shared clients; a service adds its database. */
  readiness: { redis: () => Promise<void>; kafka: () => Promise<void> };
}

export async function startRuntime(
  name: string,
  env: RuntimeEnv,
  logger?: Logger,
  options: { authStatePrefix?: string } = {},
): Promise<ServiceRuntime> {
  const log = logger ?? createLogger(name, env.LOG_LEVEL);
  const lifecycle = createLifecycle(log, env.SHUTDOWN_TIMEOUT_MS);
  // Registered first, so that it stops last and exports the spans of everything else's stop.
  const tracing = startTracing(name, {
    OTEL_EXPORTER_OTLP_ENDPOINT: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    OTEL_TRACES_SAMPLE_RATIO: env.OTEL_TRACES_SAMPLE_RATIO ?? 1,
  });
  lifecycle.onStop('tracing', () => tracing.shutdown());
  // Short commands only (token state, counters; BullMQ has its own connections): the requests of
  // one event-loop turn share a write (docs/adr/0106).
  const redis = createRedis(env.REDIS_URL, log, { autoPipelining: true });
  lifecycle.onStop('redis', async () => {
    await redis.quit();
  });
  const kafka = createKafka({
    clientId: name,
    brokers: env.KAFKA_BROKERS,
    logger: log,
    ...kafkaSecurity(env),
  });
  const admin = kafka.admin();
  await admin.connect();
  lifecycle.onStop('kafka admin', () => admin.disconnect());
  await ensureTopics(admin, env.KAFKA_TOPIC_PREFIX);
  const producer = createIdempotentProducer(kafka);
  await producer.connect();
  lifecycle.onStop('kafka producer', () => producer.disconnect());
  const verifier = await createTokenVerifier({
    publicKeyPem: env.JWT_PUBLIC_KEY,
    issuer: env.JWT_ISSUER,
  });
  return {
    name,
    logger: log,
    lifecycle,
    tracer: tracerFor(name),
    redis,
    kafka,
    admin,
    producer,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    verifier,
    authStatePrefix: options.authStatePrefix ?? '',
    gatewaySecrets: acceptedGatewaySecrets(env),
    readiness: { redis: () => pingRedis(redis), kafka: () => pingKafka(admin) },
  };
}
