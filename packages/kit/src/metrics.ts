import { TOPICS, consumerStats, physicalTopic, type Admin, type Kafka } from '@challenge/events';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RequestHandler } from 'express';

/** One registry per app, so that several apps can live in one test process. */
export interface Metrics {
  registry: Registry;
  graphqlOperations: Counter<'operation' | 'outcome'>;
  middleware: RequestHandler;
}

export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const graphqlOperations = new Counter({
    name: 'graphql_operations_total',
    help: 'GraphQL operations by name and outcome',
    labelNames: ['operation', 'outcome'] as const,
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const path = req.path; // read now: a mounted router strips its mount path later
    const end = httpDuration.startTimer({ method: req.method });
    res.on('finish', () => {
      // Only known paths as labels: arbitrary URLs would explode the series count.
      const route = ['/graphql', '/healthz', '/readyz', '/metrics'].includes(path) ? path : 'other';
      end({ route, status: String(res.statusCode) });
    });
    next();
  };
  return { registry, graphqlOperations, middleware };
}

/**
 * The event consumers' health (docs/adr/0018), read at each scrape: how far each partition is
 * behind, which handlers are retrying and for how long, what this process parked, and how many
 * messages the dead-letter topic holds. Alert on retrying seconds and on dead letters.
 */
export function registerEventMetrics(
  registry: Registry,
  clients: { kafka: Kafka; admin: Admin; topicPrefix: string },
): void {
  const partitionLabels = ['group', 'topic', 'partition'] as const;
  new Gauge({
    name: 'events_consumer_lag_messages',
    help: 'Messages behind the high watermark after the last message a consumer handled',
    labelNames: partitionLabels,
    registers: [registry],
    collect() {
      this.reset();
      for (const stats of consumerStats(clients.kafka)) {
        for (const p of stats.partitions) {
          if (p.lag === null) continue;
          this.set({ group: stats.group, topic: p.topic, partition: String(p.partition) }, p.lag);
        }
      }
    },
  });
  new Gauge({
    name: 'events_consumer_retrying_seconds',
    help: 'How long the handler of the message in hand has been failing and retried (0: not)',
    labelNames: partitionLabels,
    registers: [registry],
    collect() {
      this.reset();
      const now = Date.now();
      for (const stats of consumerStats(clients.kafka)) {
        for (const p of stats.partitions) {
          const seconds = p.retrying ? (now - p.retrying.sinceMs) / 1000 : 0;
          this.set({ group: stats.group, topic: p.topic, partition: String(p.partition) }, seconds);
        }
      }
    },
  });
  new Gauge({
    name: 'events_consumer_retrying_handlers',
    help: 'Partitions whose message in hand is being retried after a handler failure',
    labelNames: ['group'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const stats of consumerStats(clients.kafka)) {
        this.set(
          { group: stats.group },
          stats.partitions.filter((p) => p.retrying !== null).length,
        );
      }
    },
  });
  new Counter({
    name: 'events_parked_total',
    help: 'Messages this process parked on the dead-letter topic, by original topic and reason',
    labelNames: ['group', 'topic', 'kind'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const stats of consumerStats(clients.kafka)) {
        for (const entry of stats.parked) {
          this.inc({ group: stats.group, topic: entry.topic, kind: entry.kind }, entry.count);
        }
      }
    },
  });
  const deadLetterTopic = physicalTopic(TOPICS.deadLetter, clients.topicPrefix);
  new Gauge({
    name: 'events_deadletter_messages',
    help: 'Messages the dead-letter topic holds (replayed ones included until retention drops them)',
    registers: [registry],
    async collect() {
      try {
        const offsets = await clients.admin.fetchTopicOffsets(deadLetterTopic);
        this.set(offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0));
      } catch {
        // Kafka unreachable: the last value stays, and /readyz reports Kafka.
      }
    },
  });
}
