import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import express, { type Express, type RequestHandler } from 'express';
import { GraphQLError, type DocumentNode } from 'graphql';
import type { Logger } from 'pino';
import { bearerToken, type AuthUser, type TokenVerifier } from './auth.ts';
import { AuthStateUnavailableError } from './access.ts';
import { AppError, ERROR_CATALOGUE } from './errors.ts';
import { requireGateway } from './gateway-credential.ts';
import { mountOperationalEndpoints, type ReadinessChecks } from './health.ts';
import { httpErrorHandler } from './http-errors.ts';
import type { Lifecycle } from './lifecycle.ts';
import { requestIdOf, requestIds } from './logger.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { graphqlHttp } from './graphql-http.ts';
import { nulFreeInputPlugin } from './nul-input.ts';
import { graphqlSpanPlugin, httpServerSpans, tracerFor } from './tracing.ts';

/** What every resolver receives; a service adds its own dependencies through `extend`. */
export interface RequestContext {
  user: AuthUser | null;
  requestId: string;
  logger: Logger;
}

export interface SubgraphOptions<TContext extends RequestContext> {
  name: string;
  typeDefs: DocumentNode;
  resolvers: GraphQLResolverMap<TContext>;
  logger: Logger;
  lifecycle: Lifecycle;
  verifier: TokenVerifier;
  readiness: ReadinessChecks;
  /** Adds the service's own per-request dependencies to the base context. */
  extend: (base: RequestContext) => TContext;
  /**
   * Refuses a verified token that is no longer good (revoked, user banned). Throws AppError.
   * Optional: identity provides it once revocation exists.
   */
  checkUser?: (user: AuthUser) => Promise<void>;
  /**
   * The gateway's credential (docs/adr/0069): the secrets /graphql accepts, the current one and,
   * during a rotation, the previous one. Without one of them /graphql answers 403.
   */
  gatewaySecrets: readonly string[];
  /**
   * HTTP endpoints beside /graphql (webhooks, internal calls), mounted before the error handler.
   * `fromGateway` is the credential check /graphql has, for endpoints the gateway forwards to.
   */
  routes?: (app: Express, fences: RouteFences) => void;
}

/** Checks a subgraph's own HTTP endpoints can put in front of themselves. */
export interface RouteFences {
  /** 403 access_denied unless the request carries the gateway's credential. */
  fromGateway: RequestHandler;
}

export interface Subgraph {
  app: Express;
  httpServer: Server;
  metrics: Metrics;
  /** Listens on the port (0 picks a free one) and returns the URL of /graphql. */
  listen(port: number, host?: string): Promise<string>;
}

/** Client-facing error codes that carry no internals; anything else is masked. */
const SAFE_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
]);

function unauthenticated(error: AppError): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: { code: 'UNAUTHENTICATED', identifier: error.identifier, http: { status: 401 } },
  });
}

/** The token state cannot be read (see access.ts): 503, never a 401 that would end the session. */
function unavailable(logger: Logger, error: Error): GraphQLError {
  logger.warn({ err: error }, 'authenticated request refused: token state not synced');
  return new GraphQLError(ERROR_CATALOGUE.generic_error, {
    extensions: { code: 'SERVICE_UNAVAILABLE', identifier: 'generic_error', http: { status: 503 } },
  });
}

function metricsPlugin(metrics: Metrics): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ operationName, errors }) {
          metrics.graphqlOperations.inc({
            operation: operationName ?? 'anonymous',
            outcome: errors?.length ? 'error' : 'ok',
          });
        },
      };
    },
  };
}

export async function createSubgraph<TContext extends RequestContext>(
  options: SubgraphOptions<TContext>,
): Promise<Subgraph> {
  const { logger, lifecycle } = options;
  // First: a subgraph without a usable secret must not start at all (nor serve anyone).
  const fromGateway = requireGateway(options.gatewaySecrets, logger);
  const app = express();
  app.disable('x-powered-by');
  const httpServer = createServer(app);
  // The gateway's fetcher keeps idle sockets open without a limit; Node closes them after 5 s,
  // and a request sent on a socket at the moment it closes fails (ECONNRESET: generic_error).
  // Idle sockets are kept far longer than the gateway's requests are apart.
  httpServer.keepAliveTimeout = 75_000;
  httpServer.headersTimeout = 76_000;
  const metrics = createMetrics(options.name);

  const apollo = new ApolloServer<TContext>({
    schema: buildSubgraphSchema({
      typeDefs: options.typeDefs,
      // The resolver map is typed by our context; Apollo types it loosely.
      resolvers: options.resolvers as GraphQLResolverMap<unknown>,
    }),
    includeStacktraceInErrorResponses: false,
    // The lifecycle stops Apollo with everything else on SIGTERM/SIGINT. Apollo's own handler
    // would re-raise the signal once the HTTP server has drained, killing the process before the
    // Kafka, outbox and database hooks ran (only under NODE_ENV=test is it off by default).
    stopOnTerminationSignals: false,
    // Inline traces are for Apollo's hosted studio, which this platform does not use.
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      ApolloServerPluginInlineTraceDisabled(),
      // No field carries a cache hint: Apollo's cache policy would only wrap every resolver in a
      // hook and answer no-store, which the gateway works out itself (docs/adr/0096).
      ApolloServerPluginCacheControlDisabled(),
      nulFreeInputPlugin(),
      metricsPlugin(metrics),
      graphqlSpanPlugin(),
    ],
    formatError(formatted, error) {
      const code = formatted.extensions?.code;
      if (typeof code === 'string' && SAFE_CODES.has(code)) return formatted;
      logger.error({ err: error }, 'unexpected GraphQL error');
      return {
        message: 'Something went wrong.',
        extensions: { code: 'INTERNAL_SERVER_ERROR', identifier: 'generic_error' },
      };
    },
  });
  await apollo.start();

  // First: every later step, and every line it logs, belongs to the request's id and span.
  app.use(requestIds(logger), httpServerSpans(tracerFor(options.name), ['/graphql']));
  app.use(metrics.middleware);
  mountOperationalEndpoints(app, { checks: options.readiness, lifecycle, metrics });
  // /healthz, /readyz and /metrics stay open to the probes and the scraper: the gateway never
  // routes them, and the network policy keeps everyone else off the port (docs/adr/0069).
  app.use(
    '/graphql',
    // Before the body is read or the token verified: nobody but the gateway gets further.
    fromGateway,
    express.json({ limit: '1mb' }),
    graphqlHttp(apollo, async ({ req, res }) => {
      const requestId = requestIdOf(res);
      const base: RequestContext = {
        user: null,
        requestId,
        logger,
      };
      const token = bearerToken(req.get('authorization'));
      if (token) {
        try {
          base.user = await options.verifier.verify(token);
          await options.checkUser?.(base.user);
        } catch (error) {
          if (error instanceof AppError) throw unauthenticated(error);
          if (error instanceof AuthStateUnavailableError) throw unavailable(logger, error);
          throw error;
        }
      }
      return options.extend(base);
    }),
  );

  options.routes?.(app, { fromGateway });
  app.use(httpErrorHandler(logger));

  // Registered now, so it runs first on stop: stop taking requests and drain in-flight ones.
  lifecycle.onStop('http', () => apollo.stop());

  return {
    app,
    httpServer,
    metrics,
    listen(port, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          const address = httpServer.address() as AddressInfo;
          logger.info({ port: address.port }, `${options.name} subgraph listening`);
          resolve(`http://${host}:${address.port}/graphql`);
        });
      });
    },
  };
}
