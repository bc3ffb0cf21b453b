import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  ApolloGateway,
  RemoteGraphQLDataSource,
  type GraphQLDataSourceProcessOptions,
} from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import {
  AppError,
  bearerToken,
  httpErrorHandler,
  createMetrics,
  mountOperationalEndpoints,
  pingRedis,
  type AuthUser,
  type Lifecycle,
  type Logger,
  type Redis,
  type TokenVerifier,
} from '@challenge/kit';
import express, { type Express, type RequestHandler } from 'express';
import { GraphQLError } from 'graphql';
import type { SubgraphName } from './supergraph.ts';

export interface GatewayContext {
  requestId: string;
  /** The raw bearer token, forwarded to the subgraphs, which verify it themselves too. */
  token: string | null;
  user: AuthUser | null;
}

export interface GatewayOptions {
  supergraphSdl: string;
  subgraphUrls: Record<SubgraphName, string>;
  verifier: TokenVerifier;
  logger: Logger;
  lifecycle: Lifecycle;
  redis: Redis;
  publicOrigin: string;
  trustProxy: string;
  webDistDir?: string;
  production: boolean;
}

export interface Gateway {
  app: Express;
  httpServer: Server;
  listen(port: number, host?: string): Promise<string>;
}

class ForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  override willSendRequest({
    request,
    context,
  }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    if (!('requestId' in context)) return; // the gateway's own health queries
    request.http?.headers.set('x-request-id', context.requestId);
    if (context.token) request.http?.headers.set('authorization', `Bearer ${context.token}`);
  }
}

/** Express's trust-proxy setting from the env: a hop count, or names/addresses. */
function trustProxySetting(value: string): number | string[] {
  return /^\d+$/.test(value) ? Number(value) : value.split(',').map((item) => item.trim());
}

function securityHeaders(production: boolean): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data: blob: https:; media-src 'self' blob: https: http:; " +
        "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    );
    if (production)
      res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  };
}

/** Serves the built SPA: hashed assets cached for a year, every other GET gets index.html. */
function serveWeb(app: Express, webDistDir: string): void {
  const index = path.join(webDistDir, 'index.html');
  app.use(
    '/assets',
    express.static(path.join(webDistDir, 'assets'), { immutable: true, maxAge: '365d' }),
  );
  app.use(express.static(webDistDir, { index: false, maxAge: '1h' }));
  app.get(/^\/(?!graphql|api\/|healthz|readyz|metrics).*/, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}

export async function buildGateway(options: GatewayOptions): Promise<Gateway> {
  const { logger, lifecycle } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(options.trustProxy));
  const httpServer = createServer(app);
  const metrics = createMetrics('gateway');

  const gateway = new ApolloGateway({
    supergraphSdl: options.supergraphSdl,
    buildService: ({ name }) =>
      new ForwardingDataSource({ url: options.subgraphUrls[name as SubgraphName] }),
  });
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    includeStacktraceInErrorResponses: false,
    plugins: [ApolloServerPluginDrainHttpServer({ httpServer })],
    formatError(formatted, error) {
      const code = formatted.extensions?.code;
      if (code === 'INTERNAL_SERVER_ERROR' || code === undefined) {
        logger.error({ err: error }, 'unexpected gateway error');
        return {
          message: 'Something went wrong.',
          extensions: { code: 'INTERNAL_SERVER_ERROR', identifier: 'generic_error' },
        };
      }
      return formatted;
    },
  });
  await apollo.start();

  app.use(metrics.middleware);
  app.use(securityHeaders(options.production));
  mountOperationalEndpoints(app, {
    lifecycle,
    metrics,
    checks: { redis: () => pingRedis(options.redis) },
  });
  app.use(
    '/graphql',
    express.json({ limit: '1mb' }),
    expressMiddleware(apollo, {
      context: async ({ req }) => {
        const token = bearerToken(req.get('authorization'));
        let user: AuthUser | null = null;
        if (token) {
          try {
            user = await options.verifier.verify(token);
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            throw new GraphQLError(error.message, {
              extensions: {
                code: 'UNAUTHENTICATED',
                identifier: error.identifier,
                http: { status: 401 },
              },
            });
          }
        }
        return { requestId: req.get('x-request-id') ?? randomUUID(), token, user };
      },
    }),
  );
  app.use(httpErrorHandler(logger));
  if (options.webDistDir && existsSync(path.join(options.webDistDir, 'index.html'))) {
    serveWeb(app, options.webDistDir);
  } else if (options.webDistDir) {
    logger.warn({ webDistDir: options.webDistDir }, 'web build not found; serving the API only');
  }

  lifecycle.onStop('http', () => apollo.stop());

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
