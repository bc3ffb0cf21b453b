import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import {
  createMetrics,
  graphqlHttp,
  graphqlSpanPlugin,
  httpErrorHandler,
  httpServerSpans,
  requestIdOf,
  requestIds,
  tracerFor,
  mountOperationalEndpoints,
  pingRedis,
  type Lifecycle,
  type Logger,
  type Redis,
  type TokenVerifier,
} from '@challenge/kit';
import express, { type Express } from 'express';
import { authenticate, type Authentication } from './auth.ts';
import type { GatewayContext } from './context.ts';
import { cookiesAreSecure } from './cookies.ts';
import { ForwardingDataSource } from './data-source.ts';
import { DEV_INBOX_PATH, devInbox } from './dev-inbox.ts';
import { geofence, locationEndpoint, type GeofenceOptions } from './geofence.ts';
import { cors, isOperator, metricsGuard, securityHeaders } from './http-security.ts';
import {
  DEFAULT_GRAPHQL_LIMITS,
  limitParseOptions,
  limitRules,
  withoutSuggestions,
  type GraphqlLimits,
} from './graphql-limits.ts';
import {
  DEFAULT_GRAPHQL_ADDRESS_CEILING,
  DEFAULT_GRAPHQL_RATE_LIMIT,
  DEFAULT_GRAPHQL_USER_RATE_LIMIT,
  DEFAULT_RATE_LIMITS,
  DEFAULT_WEBHOOK_RATE_LIMIT,
  type IpRateRule,
  type RateLimits,
  DEFAULT_UPLOAD_RATE_LIMIT,
  type UserRateRule,
} from './rate-limit-rules.ts';
import { pageLookupBudget, rateLimitPlugin, userRateLimit } from './rate-limit.ts';
import { PAYMENT_WEBHOOK_PUBLIC_PATH, paymentWebhook } from './payment-webhook.ts';
import { IMAGE_PATH, imageProxy } from './image-proxy.ts';
import { sessionPlugin } from './session-plugin.ts';
import type { SubgraphName } from './supergraph.ts';
import {
  PUBLIC_TUS_PATH,
  forwardTus,
  forwardUploads,
  lingerThenClose,
  tusPathCheck,
} from './uploads.ts';
import { pageSubjectLookUp } from './page-subjects.ts';
import { serveWeb } from './web.ts';

export type { GatewayContext } from './context.ts';
export { createGatewayRedis } from './rate-limit.ts';

export interface GatewayOptions {
  supergraphSdl: string;
  subgraphUrls: Record<SubgraphName, string>;
  /**
   * The gateway's credential (docs/adr/0069), sent with every request to a subgraph: GraphQL,
   * and the uploads and images forwarded to media. The subgraphs serve nothing without it.
   */
  gatewaySecret: string;
  verifier: TokenVerifier;
  logger: Logger;
  lifecycle: Lifecycle;
  redis: Redis;
  publicOrigin: string;
  trustProxy: string;
  webDistDir?: string;
  /** Where browsers load signed videos and thumbnails from; pages ask them to connect early. */
  mediaOrigin?: string;
  production: boolean;
  /** Default: on, private addresses allowed unless production. */
  geofence?: GeofenceOptions;
  /** Default: DEFAULT_RATE_LIMITS. */
  rateLimits?: RateLimits;
  /** Default: DEFAULT_GRAPHQL_RATE_LIMIT, anonymous API requests per client IP (IPv6 per /64). */
  graphqlRateLimit?: IpRateRule;
  /** Page lookups (page-subjects.ts) per client IP; default: DEFAULT_GRAPHQL_RATE_LIMIT. */
  pageLookupRateLimit?: IpRateRule;
  /** Default: DEFAULT_GRAPHQL_USER_RATE_LIMIT, signed-in API requests per user. */
  graphqlUserRateLimit?: UserRateRule;
  /** Default: DEFAULT_GRAPHQL_ADDRESS_CEILING, every API request per client IP, before auth. */
  graphqlAddressCeiling?: IpRateRule;
  /** Default: DEFAULT_GRAPHQL_LIMITS, bounds on one GraphQL document. */
  graphqlLimits?: GraphqlLimits;
  /** The payment webhook's limit per client IP (default DEFAULT_WEBHOOK_RATE_LIMIT). */
  webhookRateLimit?: IpRateRule;
  /** New uploads (multipart and tus creations) per user (default DEFAULT_UPLOAD_RATE_LIMIT). */
  uploadRateLimit?: UserRateRule;
  /** Prefix of the rate-limit keys in Redis (default `gateway:`); tests isolate with it. */
  rateLimitKeyPrefix?: string;
  /** Bearer token that unlocks /metrics for public addresses. */
  metricsToken?: string;
  /** Origins allowed cross-origin (CORS); none by default. */
  corsOrigins?: string[];
}

export interface Gateway {
  app: Express;
  httpServer: Server;
  listen(port: number, host?: string): Promise<string>;
}

/** Apollo's codes for a request the schema refuses; they carry no identifier of their own. */
const CLIENT_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
]);

/** Express's trust-proxy setting from the env: a hop count, or names/addresses. */
function trustProxySetting(value: string): number | string[] {
  return /^\d+$/.test(value) ? Number(value) : value.split(',').map((item) => item.trim());
}

export async function buildGateway(options: GatewayOptions): Promise<Gateway> {
  const { logger, lifecycle, production } = options;
  const graphqlLimits = options.graphqlLimits ?? DEFAULT_GRAPHQL_LIMITS;
  const rateLimitKeyPrefix = options.rateLimitKeyPrefix ?? 'gateway:';
  const geofenceOptions = options.geofence ?? { enabled: true, allowPrivate: !production };
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(options.trustProxy));
  const httpServer = createServer(app);
  // Clients (a load balancer above all) keep their connections: an idle one is closed after
  // 65 s, longer than the usual balancer's 60, so that it is never the gateway that closes a
  // connection at the moment a request is sent on it.
  httpServer.keepAliveTimeout = 65_000;
  httpServer.headersTimeout = 66_000;
  const metrics = createMetrics('gateway');

  const dataSources: ForwardingDataSource[] = [];
  const gateway = new ApolloGateway({
    supergraphSdl: options.supergraphSdl,
    buildService: ({ name }) => {
      const source = new ForwardingDataSource({
        name,
        url: options.subgraphUrls[name as SubgraphName],
        gatewaySecret: options.gatewaySecret,
      });
      dataSources.push(source);
      return source;
    },
  });
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    includeStacktraceInErrorResponses: false,
    // The lifecycle stops Apollo with everything else; Apollo's own SIGTERM handler would kill
    // the process as soon as the HTTP server drained, before the Redis hook ran.
    stopOnTerminationSignals: false,
    // Introspection only outside production; no "Did you mean ...?" in validation errors.
    introspection: !production,
    hideSchemaDetailsFromClientErrors: true,
    // One operation per request (Apollo's default, stated): a batch would multiply the limits.
    allowBatchedHttpRequests: false,
    parseOptions: limitParseOptions(graphqlLimits),
    validationRules: limitRules(graphqlLimits),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      rateLimitPlugin({
        redis: options.redis,
        logger,
        limits: options.rateLimits ?? DEFAULT_RATE_LIMITS,
        keyPrefix: rateLimitKeyPrefix,
      }),
      sessionPlugin(),
      graphqlSpanPlugin(),
    ],
    formatError(formatted, error) {
      const code = formatted.extensions?.code;
      if (code === 'INTERNAL_SERVER_ERROR' || code === undefined) {
        logger.error({ err: error }, 'unexpected gateway error');
        return {
          message: 'Something went wrong.',
          extensions: { code: 'INTERNAL_SERVER_ERROR', identifier: 'generic_error' },
        };
      }
      const identifier = formatted.extensions?.identifier;
      return {
        ...formatted,
        // Suggestions map the schema for whoever guesses; any error may carry one.
        message: withoutSuggestions(formatted.message),
        extensions: {
          ...formatted.extensions,
          ...(identifier === undefined && CLIENT_ERROR_CODES.has(code as string)
            ? { identifier: 'invalid_input' }
            : {}),
        },
      };
    },
  });
  await apollo.start();

  // First: the request's id and its span (continuing the browser's traceparent, docs/adr/0080).
  app.use(requestIds(logger), httpServerSpans(tracerFor('gateway'), ['/graphql', PUBLIC_TUS_PATH]));
  app.use(metrics.middleware);
  app.use(securityHeaders(production));
  app.use(cors(options.corsOrigins ?? []));
  const operator = isOperator(options.metricsToken);
  app.use('/metrics', metricsGuard(operator));
  mountOperationalEndpoints(app, {
    lifecycle,
    metrics,
    checks: { redis: () => pingRedis(options.redis) },
    // The internet learns whether the gateway is ready, not which dependency fails and how.
    showChecks: operator,
  });
  app.get('/api/location', locationEndpoint(geofenceOptions));
  if (!production) app.use(DEV_INBOX_PATH, devInbox());
  app.post(
    PAYMENT_WEBHOOK_PUBLIC_PATH,
    ...paymentWebhook(options.subgraphUrls.wallet, logger, {
      redis: options.redis,
      logger,
      keyPrefix: rateLimitKeyPrefix,
      name: 'paymentWebhook',
      rule: options.webhookRateLimit ?? DEFAULT_WEBHOOK_RATE_LIMIT,
    }),
  );
  // Everything the gateway sends media goes on a path rebuilt from checked parts, with its
  // credential (issue 18, docs/adr/0069).
  const media = {
    mediaUrl: options.subgraphUrls.media,
    gatewaySecret: options.gatewaySecret,
    logger,
  };
  app.use(IMAGE_PATH, imageProxy(media));
  // One budget of new uploads per user, whichever way they come (ADR 52).
  const uploadLimit = (counts: (req: express.Request) => boolean) =>
    userRateLimit({
      redis: options.redis,
      logger,
      name: 'upload',
      rule: options.uploadRateLimit ?? DEFAULT_UPLOAD_RATE_LIMIT,
      keyPrefix: rateLimitKeyPrefix,
      counts,
      discardBody: lingerThenClose,
    });
  // Who calls and the API's general limits (docs/adr/0082) in one Redis round trip
  // (docs/adr/0088), before the body is read: a client over its limit costs no parsing. The tus
  // endpoint and /graphql share the budgets.
  const authenticated = authenticate({
    verifier: options.verifier,
    publicOrigin: options.publicOrigin,
    production,
    limits: {
      redis: options.redis,
      logger,
      keyPrefix: rateLimitKeyPrefix,
      ceiling: options.graphqlAddressCeiling ?? DEFAULT_GRAPHQL_ADDRESS_CEILING,
      anonymous: options.graphqlRateLimit ?? DEFAULT_GRAPHQL_RATE_LIMIT,
      signedIn: options.graphqlUserRateLimit ?? DEFAULT_GRAPHQL_USER_RATE_LIMIT,
    },
  });
  // Resumable uploads (ADR 36): the same fences as /graphql, then streamed on to media.
  app.use(
    PUBLIC_TUS_PATH,
    // First: a path that names no tus resource is refused before anything counts or reads it.
    tusPathCheck(),
    geofence(geofenceOptions),
    authenticated,
    uploadLimit((req) => req.method === 'POST'),
    forwardTus(media),
  );
  app.use(
    '/graphql',
    geofence(geofenceOptions),
    // Before the body is read: a client over its limit costs no parsing.
    authenticated,
    express.json({ limit: '1mb' }),
    uploadLimit((req) => Boolean(req.is('multipart/form-data'))),
    // Multipart uploads stream on to media here; JSON requests go on to Apollo.
    forwardUploads(media),
    graphqlHttp(apollo, async ({ req, res }) => {
      const auth = res.locals.auth as Authentication;
      return {
        requestId: requestIdOf(res),
        token: auth.token,
        user: auth.user,
        clientIp: req.ip ?? 'unknown',
        secureCookies: cookiesAreSecure(req, production),
      };
    }),
  );
  app.use(httpErrorHandler(logger));
  if (options.webDistDir && existsSync(path.join(options.webDistDir, 'index.html'))) {
    serveWeb(app, options.webDistDir, {
      geofence: geofenceOptions,
      mediaOrigin: options.mediaOrigin,
      lookUp: pageSubjectLookUp({
        apollo,
        verifier: options.verifier,
        logger,
        production,
        mayLookUp: pageLookupBudget(
          { redis: options.redis, logger, keyPrefix: rateLimitKeyPrefix },
          options.pageLookupRateLimit ?? DEFAULT_GRAPHQL_RATE_LIMIT,
        ),
      }),
    });
  } else if (options.webDistDir) {
    logger.warn({ webDistDir: options.webDistDir }, 'web build not found; serving the API only');
  }

  lifecycle.onStop('http', async () => {
    await apollo.stop();
    for (const source of dataSources) source.close();
  });

  return {
    app,
    httpServer,
    listen(port, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          const address = httpServer.address() as AddressInfo;
          logger.info({ port: address.port }, 'gateway listening');
          resolve(`http://${host}:${address.port}`);
        });
      });
    },
  };
}
