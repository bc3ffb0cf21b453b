import {
  TOPICS,
  consumerStats,
  physicalTopic,
  type Admin,
  type ConsumerStats,
  type Kafka,
} from '@challenge/events';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RequestHandler } from 'express';
import type { TransactionRunner } from '@challenge/events';

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
 * The lag of each partition assigned to this member of the group, read at the scrape: the log's
 * end minus the further of the group's committed offset and the message this process handled
 * last. So a handler stuck on a message shows the messages piling up behind it, and the replicas'
 * series add up to the group's lag (each reports its own partitions). Without the broker's answer
 * it falls back to the lag seen when the last message was handled.
 */
async function consumerLag(
  admin: Admin,
  stats: ConsumerStats,
): Promise<{ topic: string; partition: number; lag: number }[]> {
  const handled = new Map(stats.partitions.map((p) => [`${p.topic}|${p.partition}`, p]));
  const lags: { topic: string; partition: number; lag: number }[] = [];
  for (const [topic, assigned] of Object.entries(stats.assigned)) {
    try {
      const [ends, [committed]] = await Promise.all([
        admin.fetchTopicOffsets(topic),
        admin.fetchOffsets({ groupId: stats.group, topics: [topic] }),
      ]);
      for (const partition of assigned) {
        const end = ends.find((p) => p.partition === partition);
        if (!end) continue;
        const commit = Number(committed?.partitions.find((p) => p.partition === partition)?.offset);
        const position = Number(handled.get(`${topic}|${partition}`)?.position ?? -1);
        const consumedTo = Math.max(commit >= 0 ? commit : Number(end.low), position);
        lags.push({ topic, partition, lag: Math.max(0, Number(end.high) - consumedTo) });
      }
    } catch {
      for (const p of stats.partitions) {
        if (p.topic === topic && p.lag !== null) lags.push({ ...p, lag: p.lag });
      }
    }
  }
  return lags;
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
    help: 'Messages on a partition this process consumes that its group has not handled yet',
    labelNames: partitionLabels,
    registers: [registry],
    async collect() {
      this.reset();
      for (const stats of consumerStats(clients.kafka)) {
        for (const { topic, partition, lag } of await consumerLag(clients.admin, stats)) {
          this.set({ group: stats.group, topic, partition: String(partition) }, lag);
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

/**
 * The outbox's backlog (docs/adr/0002), read at each scrape: events written but not yet on Kafka,
 * and how long the oldest has waited. A growing age means the relay is stuck (Kafka away, a lock
 * held); consumers see nothing of this service meanwhile. Both come from one query, an index
 * range over the unpublished rows (outbox_events_published_at_seq_idx).
 */
export function registerOutboxMetrics(registry: Registry, transaction: TransactionRunner): void {
  let reading: {
    at: number;
    result: Promise<{ count: number; ageSeconds: number } | null>;
  } | null = null;
  const backlog = () => {
    // One query serves both gauges of a scrape.
    if (!reading || Date.now() - reading.at > 1_000) {
      reading = {
        at: Date.now(),
        result: transaction(async (tx) => {
          const [row] = await tx.$queryRawUnsafe<{ count: number; age_seconds: number }[]>(
            `SELECT count(*)::int AS count,
                    COALESCE(EXTRACT(EPOCH FROM LOCALTIMESTAMP - min(created_at)), 0)::float8 AS age_seconds
               FROM outbox_events WHERE published_at IS NULL`,
          );
          return { count: row?.count ?? 0, ageSeconds: Math.max(0, row?.age_seconds ?? 0) };
        }).catch(() => null), // database away: the last values stay, and /readyz says so
      };
    }
    return reading.result;
  };
  new Gauge({
    name: 'outbox_unpublished_events',
    help: 'Events in the outbox not yet published to Kafka',
    registers: [registry],
    async collect() {
      const value = await backlog();
      if (value) this.set(value.count);
    },
  });
  new Gauge({
    name: 'outbox_oldest_unpublished_age_seconds',
    help: 'Age of the oldest event in the outbox not yet published (0: none waiting)',
    registers: [registry],
    async collect() {
      const value = await backlog();
      if (value) this.set(value.ageSeconds);
    },
  });
}

/**
 * A job queue's depth by state (media's video processing), read at each scrape: `waiting` and
 * `prioritized` are the backlog the workers have not started, `delayed` the retries waiting for
 * their backoff, `active` the jobs in hand, `failed` the ones that gave up (kept 30 days).
 */
export function registerJobQueueMetrics(
  registry: Registry,
  queue: string,
  depth: () => Promise<Record<string, number>>,
): void {
  new Gauge({
    name: 'job_queue_jobs',
    help: 'Jobs of a queue by state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      try {
        for (const [state, count] of Object.entries(await depth()))
          this.set({ queue, state }, count);
      } catch {
        // Redis away: the last values stay, and /readyz says so.
      }
    },
  });
}
