import { readFileSync } from 'node:fs';
import {
  startOutboxRelay,
  type EventConsumer,
  type OutboxRelay,
  type TransactionRunner,
} from '@challenge/events';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import type { Express } from 'express';
import { parse } from 'graphql';
import { createAccessCheck } from './access.ts';
import type { ReadinessChecks } from './health.ts';
import { registerEventMetrics, registerOutboxMetrics } from './metrics.ts';
import type { ServiceRuntime } from './runtime.ts';
import {
  createSubgraph,
  type RequestContext,
  type RouteFences,
  type Subgraph,
} from './subgraph.ts';

/** What a service's data layer hands the kit: nothing Prisma-specific leaks out of data/. */
export interface ServiceDatabase {
  ping(): Promise<void>;
  transaction: TransactionRunner;
  disconnect(): Promise<void>;
}

export interface ServiceAppOptions<TContext extends RequestContext> {
  runtime: ServiceRuntime;
  database: ServiceDatabase;
  /** URL of the service's checked-in SDL file. */
  schemaFile: URL;
  resolvers: GraphQLResolverMap<TContext>;
  extend: (base: RequestContext) => TContext;
  /** The service's own dependencies (object storage, SMTP...), probed by /readyz beside the database. */
  readiness?: ReadinessChecks;
  /**
   * HTTP endpoints beside /graphql (webhooks, internal calls); `fences.fromGateway` checks the
   * gateway's credential for the ones the gateway forwards to (docs/adr/0069).
   */
  routes?: (app: Express, fences: RouteFences) => void;
  /** Starts the service's Kafka consumers, if it has any. */
  consumers?: () => Promise<EventConsumer>;
}

export interface ServiceApp {
  subgraph: Subgraph;
  relay: OutboxRelay;
  consumer: EventConsumer | null;
}

/**
 * Wires a subgraph the same way in every service: database, outbox relay, consumers, then the
 * HTTP server, each registered on the lifecycle so that a stop runs in the reverse order.
 */
export async function createServiceApp<TContext extends RequestContext>(
  options: ServiceAppOptions<TContext>,
): Promise<ServiceApp> {
  const { runtime, database } = options;
  const { lifecycle, logger } = runtime;
  lifecycle.onStop('database', () => database.disconnect());

  const relay = startOutboxRelay({
    transaction: database.transaction,
    producer: runtime.producer,
    topicPrefix: runtime.topicPrefix,
    logger,
    tracer: runtime.tracer,
  });
  lifecycle.onStop('outbox relay', () => relay.stop());

  const consumer = options.consumers ? await options.consumers() : null;
  if (consumer) lifecycle.onStop('event consumer', () => consumer.stop());

  const subgraph = await createSubgraph<TContext>({
    name: runtime.name,
    typeDefs: parse(readFileSync(options.schemaFile, 'utf8')),
    resolvers: options.resolvers,
    logger,
    lifecycle,
    verifier: runtime.verifier,
    readiness: { database: () => database.ping(), ...runtime.readiness, ...options.readiness },
    extend: options.extend,
    checkUser: createAccessCheck(runtime.redis, runtime.authStatePrefix),
    gatewaySecrets: runtime.gatewaySecrets,
    routes: options.routes,
  });
  if (consumer) registerEventMetrics(subgraph.metrics.registry, runtime);
  registerOutboxMetrics(subgraph.metrics.registry, database.transaction);
  return { subgraph, relay, consumer };
}
