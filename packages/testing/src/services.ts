import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import {
  startRuntime,
  createTokenIssuer,
  type Role,
  type RuntimeEnv,
  type ServiceRuntime,
  type Logger,
  type Subgraph,
} from '@challenge/kit';
import { pino } from 'pino';
import { createTestDatabase, type ServiceName, type TestDatabase } from './databases.ts';
import { testKeys } from './keys.ts';
import { stack } from './stack.ts';

/** A topic prefix per test file, so that files sharing the broker never see each other's events. */
export const uniqueTopicPrefix = () => `t${randomBytes(4).toString('hex')}.`;

export const JWT_ISSUER = 'challenge-platform-test';

/**
 * The gateway's credential in tests (docs/adr/0069): every test subgraph accepts it, the test
 * gateways send it, and the graphql helper sends it when it calls a subgraph directly.
 */
export const TEST_GATEWAY_SECRET = 'gateway-test-secret-gateway-test-secret-0000';
export const GATEWAY_SECRET_HEADER = 'x-gateway-secret';
/** The headers that make a direct call to a test subgraph come "from the gateway". */
export const fromGateway = (): Record<string, string> => ({
  [GATEWAY_SECRET_HEADER]: TEST_GATEWAY_SECRET,
});

export async function testRuntimeEnv(topicPrefix: string): Promise<RuntimeEnv> {
  return {
    LOG_LEVEL: 'silent',
    SHUTDOWN_TIMEOUT_MS: 10_000,
    REDIS_URL: stack.redisUrl,
    KAFKA_BROKERS: stack.kafkaBrokers,
    KAFKA_TOPIC_PREFIX: topicPrefix,
    JWT_PUBLIC_KEY: (await testKeys()).publicKeyPem,
    JWT_ISSUER,
    GATEWAY_SECRET: TEST_GATEWAY_SECRET,
  };
}

/** A token as identity would issue it, signed with the test key. */
export async function tokenFor(user: { id: string; roles?: Role[] }): Promise<string> {
  const issuer = await createTokenIssuer({
    privateKeyPem: (await testKeys()).privateKeyPem,
    issuer: JWT_ISSUER,
    ttlSeconds: 3600,
  });
  return (await issuer.issue({ id: user.id, roles: user.roles ?? ['user'] })).token;
}

export interface TestService<A> {
  app: A;
  runtime: ServiceRuntime;
  database: TestDatabase;
  /** URL of the subgraph's /graphql. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts one service for real, as its composition root would, against its own fresh database,
 * the local Redis and Kafka (topics under `topicPrefix`), listening on a free port.
 */
export async function startTestService<A extends { subgraph: Subgraph }>(
  service: ServiceName,
  build: (runtime: ServiceRuntime, databaseUrl: string) => Promise<A>,
  options: { topicPrefix: string; logLevel?: string; authStatePrefix?: string; logger?: Logger },
): Promise<TestService<A>> {
  const database = await createTestDatabase(service);
  const env = await testRuntimeEnv(options.topicPrefix);
  const logger = options.logger ?? pino({ level: options.logLevel ?? 'silent', base: { service } });
  const runtime = await startRuntime(service, env, logger, {
    authStatePrefix: options.authStatePrefix,
  });
  const app = await build(runtime, database.url);
  const url = await app.subgraph.listen(0);
  return {
    app,
    runtime,
    database,
    url,
    async stop() {
      await runtime.lifecycle.stop('test finished');
      await database.drop();
    },
  };
}

export const TEST_INTERNAL_API_TOKEN = 'internal-test-token-internal-test-token-0000';

/** Identity's settings for tests: the test signing key, a fixed origin and hash secret. */
export async function testIdentityConfig(databaseUrl: string) {
  return {
    databaseUrl,
    jwtPrivateKey: (await testKeys()).privateKeyPem,
    jwtIssuer: JWT_ISSUER,
    jwtTtlSeconds: 3600,
    publicOrigin: 'https://challenge.test',
    authHashSecret: 'test-secret-for-one-time-codes-and-links-000',
    internalApiToken: TEST_INTERNAL_API_TOKEN,
  };
}

/**
 * Wallet's settings for tests: the local payment sandbox, the test origin, small limits, the
 * reconciliation left to the test. The webhook URL is a function: a test learns its port late.
 */
export function testWalletConfig(databaseUrl: string, webhookUrl: () => string = () => '') {
  return {
    databaseUrl,
    internalApiToken: TEST_INTERNAL_API_TOKEN,
    publicOrigin: 'https://challenge.test',
    paymentWebhookUrl: webhookUrl,
    mollie: {
      apiKey: stack.paymentSandbox.apiKey,
      apiEndpoint: stack.paymentSandbox.apiUrl,
      extraCaPem: existsSync(stack.paymentSandbox.caFile)
        ? readFileSync(stack.paymentSandbox.caFile, 'utf8')
        : undefined,
    },
    limits: {
      minimumTopUpCents: 500,
      monthlyDepositLimitCents: 100_000,
      monthlyWithdrawalLimitCents: 50_000,
      minimumPayoutCents: 1_000,
    },
    sepaDebtor: { name: 'Challenge Platform B.V.', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A' },
    reconciliation: { intervalMs: 3_600_000, graceMs: 0 },
  };
}
