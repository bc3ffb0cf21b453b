import { randomBytes, randomUUID } from 'node:crypto';
import {
  AppError,
  createLifecycle,
  createSubgraph,
  createTokenVerifier,
  failStatus,
  okStatus,
  revokeToken,
  type Lifecycle,
  type Redis,
  type RequestContext,
  type TokenVerifier,
} from '@challenge/kit';
import { JWT_ISSUER, TEST_GATEWAY_SECRET, stack, testKeys, tokenFor } from '@challenge/testing';
import { parse } from 'graphql';
import { pino } from 'pino';
import { buildGateway, createGatewayRedis, type GatewayOptions } from '../src/app.ts';
import { SUBGRAPHS, composeSupergraph, type SubgraphName } from '../src/supergraph.ts';

/** Real addresses of the shipped IP database (checked with geoip-country). */
export const GB_IP = '81.2.69.142'; // GB, continent EU
export const DE_IPV6 = '2a00:1450:4001:80b::200e'; // DE, continent EU
export const US_IP = '8.8.8.8'; // US, continent NA
export const UNKNOWN_IP = '1.1.1.1'; // public, but not in the database

export const PUBLIC_ORIGIN = 'https://challenge.example';
export const PASSWORD = 'Right-pass1!';
export const CODE = '123456';

/** A private address of its own per test, so that per-IP counters never collide. */
export const privateIp = () => `10.${[...randomBytes(3)].join('.')}`;
export const uniqueEmail = () => `user-${randomUUID()}@example.com`;

const IDENTITY_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@shareable"])
  type Status @shareable {
    success: Boolean!
    identifier: String!
    message: String!
  }
  input LoginInput {
    username: String!
    password: String!
  }
  input VerifyLoginCodeInput {
    email: String!
    code: String!
  }
  input RequestLoginLinkInput {
    email: String!
    originUrl: String!
  }
  input VerifyUserInput {
    email: String!
    code: String
    username: String!
  }
  type SessionResult {
    status: Status!
    accessToken: String
  }
  type LogoutResult {
    status: Status!
  }
  type RequestLoginLinkResult {
    status: Status!
    email: String
  }
  type WhoAmI {
    status: Status!
    userId: ID
  }
  "A chain as deep as a client asks, for the query-limit tests."
  type Node {
    id: ID!
    child: Node
  }
  type Query {
    whoAmI: WhoAmI!
    "path: any list of numbers, ignored (a long document of distinct tokens)."
    node(path: [Int!]): Node
  }
  type Mutation {
    login(input: LoginInput!): SessionResult!
    verifyLoginCode(input: VerifyLoginCodeInput!): SessionResult!
    logout: LogoutResult!
    requestLoginLink(input: RequestLoginLinkInput!): RequestLoginLinkResult!
    verifyUser(input: VerifyUserInput!): SessionResult!
  }
`;

export interface TestPlatform {
  lifecycle: Lifecycle;
  redis: Redis;
  verifier: TokenVerifier;
  identityUrl: string;
  /** The user id of a username (created on first use). */
  userId(username: string): string;
  /** Users the identity subgraph itself refuses (401) although the gateway lets them pass. */
  refusedAtSubgraph: Map<string, 'unauthorized' | 'banned_user'>;
  /** A gateway over the test identity subgraph; defaults: test env, loopback proxy trusted. */
  gateway(overrides?: Partial<GatewayOptions>): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A tiny identity subgraph built with kit's createSubgraph (login, code verification and logout
 * answer `{ status, accessToken }` with tokens signed by the test key), and gateways over it.
 */
export async function startPlatform(): Promise<TestPlatform> {
  const logger = pino({ level: 'silent' });
  const lifecycle = createLifecycle(logger, 5_000);
  const redis = createGatewayRedis(stack.redisUrl, logger);
  lifecycle.onStop('redis', async () => void (await redis.quit()));
  const verifier = await createTokenVerifier({
    publicKeyPem: (await testKeys()).publicKeyPem,
    issuer: JWT_ISSUER,
  });
  const ids = new Map<string, string>();
  const userId = (username: string) => {
    if (!ids.has(username)) ids.set(username, randomUUID());
    return ids.get(username)!;
  };
  const refusedAtSubgraph = new Map<string, 'unauthorized' | 'banned_user'>();
  const session = async (account: string, ok: boolean) =>
    ok
      ? { status: okStatus(), accessToken: await tokenFor({ id: userId(account) }) }
      : { status: failStatus('invalid_credentials'), accessToken: null };

  const subgraph = await createSubgraph<RequestContext>({
    name: 'identity',
    typeDefs: parse(IDENTITY_SDL),
    logger,
    lifecycle,
    verifier,
    readiness: {},
    extend: (base) => base,
    gatewaySecrets: [TEST_GATEWAY_SECRET],
    checkUser: async (user) => {
      const refusal = refusedAtSubgraph.get(user.id);
      if (refusal) throw new AppError(refusal);
    },
    resolvers: {
      Query: {
        node: () => ({ id: 'n', child: null }),
        whoAmI: (_: unknown, __: unknown, context: RequestContext) => ({
          status: okStatus(),
          userId: context.user?.id ?? null,
        }),
      },
      Mutation: {
        login: (_: unknown, { input }: { input: { username: string; password: string } }) =>
          session(input.username, input.password === PASSWORD),
        verifyLoginCode: (_: unknown, { input }: { input: { email: string; code: string } }) =>
          session(input.email, input.code === CODE),
        logout: async (_: unknown, __: unknown, context: RequestContext) => {
          if (!context.user) return { status: failStatus('unauthorized') };
          await revokeToken(redis, context.user);
          return { status: okStatus() };
        },
        verifyUser: (_: unknown, { input }: { input: { email: string; code?: string } }) =>
          session(input.email, input.code === CODE),
        requestLoginLink: (_: unknown, { input }: { input: { email: string } }) => ({
          status: okStatus(),
          email: input.email,
        }),
      },
    },
  });
  const identityUrl = await subgraph.listen(0);
  const supergraphSdl = composeSupergraph([{ name: 'identity', sdl: IDENTITY_SDL }]);

  return {
    lifecycle,
    redis,
    verifier,
    identityUrl,
    userId,
    refusedAtSubgraph,
    async gateway(overrides = {}) {
      const gateway = await buildGateway({
        supergraphSdl,
        subgraphUrls: Object.fromEntries(
          SUBGRAPHS.map((name) => [name, name === 'identity' ? identityUrl : 'http://127.0.0.1:9']),
        ) as Record<SubgraphName, string>,
        verifier,
        logger,
        lifecycle,
        redis,
        gatewaySecret: TEST_GATEWAY_SECRET,
        publicOrigin: PUBLIC_ORIGIN,
        trustProxy: 'loopback',
        production: false,
        rateLimitKeyPrefix: `test:${randomUUID()}:`,
        ...overrides,
      });
      return gateway.listen(0);
    },
    stop: () => lifecycle.stop('test finished'),
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: Record<string, any>;
}

/** A real POST to the gateway's /graphql with the given headers. */
export async function post(
  base: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Answer['body'],
  };
}

/** The identifier of an answer's first GraphQL error. */
export const identifierOf = (answer: Answer): unknown =>
  answer.body.errors?.[0]?.extensions?.identifier;
