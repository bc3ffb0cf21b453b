import { randomUUID } from 'node:crypto';
import { buildGateway, createGatewayRedis, type GatewayOptions } from '@challenge/gateway/app';
import { SUBGRAPHS, composeSupergraph, type SubgraphName } from '@challenge/gateway/supergraph';
import { createLifecycle, createTokenVerifier } from '@challenge/kit';
import { JWT_ISSUER, TEST_GATEWAY_SECRET, stack, testKeys } from '@challenge/testing';
import { pino } from 'pino';

/** Where the subgraphs a test does not start "live": nothing listens there. */
const UNREACHABLE = 'http://127.0.0.1:9/graphql';

/** What a test may set on top: geofence, rate limits, CORS, metrics token, production mode. */
export type TestGatewayOptions = Partial<
  Omit<GatewayOptions, 'supergraphSdl' | 'subgraphUrls' | 'verifier' | 'lifecycle'>
>;

/**
 * The real gateway over the checked-in supergraph, routing to the subgraphs a test started
 * (the others unreachable), verifying tokens with the test key. Returns its /graphql URL.
 * Development mode: loopback clients pass the geofence, and the session cookie has no Secure
 * over plain http. Its rate-limit counters live under a key prefix of its own. It sends the
 * tests' gateway credential to the subgraphs.
 */
export async function startTestGateway(
  subgraphUrls: Partial<Record<SubgraphName, string>>,
  options: TestGatewayOptions = {},
  port = 0,
): Promise<{ url: string; stop(): Promise<void> }> {
  const logger = options.logger ?? pino({ level: 'error' });
  const lifecycle = createLifecycle(logger, 5_000);
  const redis = createGatewayRedis(stack.redisUrl, logger);
  lifecycle.onStop('redis', async () => void (await redis.quit()));
  const gateway = await buildGateway({
    supergraphSdl: composeSupergraph(),
    subgraphUrls: Object.fromEntries(
      SUBGRAPHS.map((name) => [name, subgraphUrls[name] ?? UNREACHABLE]),
    ) as Record<SubgraphName, string>,
    verifier: await createTokenVerifier({
      publicKeyPem: (await testKeys()).publicKeyPem,
      issuer: JWT_ISSUER,
    }),
    logger,
    lifecycle,
    redis,
    publicOrigin: 'http://127.0.0.1',
    trustProxy: 'loopback',
    production: false,
    rateLimitKeyPrefix: `e2e:${randomUUID()}:`,
    // The credential every test subgraph accepts (docs/adr/0069).
    gatewaySecret: TEST_GATEWAY_SECRET,
    ...options,
  });
  const url = `${await gateway.listen(port)}/graphql`;
  return { url, stop: () => lifecycle.stop('test finished') };
}
