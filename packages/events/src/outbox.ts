import { randomUUID } from 'node:crypto';
import type { Span } from '@opentelemetry/api';
import type { Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { EVENT_TYPES, type DomainEvent, type EventData, type EventType } from './schemas.ts';
import type { SqlExecutor, TransactionRunner } from './sql.ts';
import { physicalTopic } from './topics.ts';
import {
  currentTraceContext,
  endFailed,
  eventsTracer,
  startPublishSpan,
  type Tracer,
} from './trace-context.ts';

/**
 * The transactional outbox. A service writes its state change and its events in one database
 * transaction (`enqueueEvents` inside that transaction); the relay publishes them to Kafka
 * afterwards, keyed by aggregate id so that one aggregate's events keep their order.
 */

export function newEvent<T extends EventType>(
  type: T,
  input: { aggregateId: string; actorId: string | null; data: EventData<T> },
): DomainEvent<T> {
  const data = EVENT_TYPES[type].data.parse(input.data) as EventData<T>;
  return {
    id: randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    aggregateId: input.aggregateId,
    actorId: input.actorId,
    data,
  } as DomainEvent<T>;
}

/** Transactions that enqueued events (until they are garbage): publishAfterCommit asks. */
const enqueuedIn = new WeakSet<object>();
/** The wake-ups of the relays running in this process. */
const relaysInProcess = new Set<() => void>();

/**
 * Wraps a service's transaction runner: once a transaction that enqueued events has committed,
 * the relays of this process publish at once instead of at their next poll (docs/adr/0093). Only
 * a wake-up: a transaction run without it is published by the poll, as before, and a rolled-back
 * one wakes nothing.
 */
export function publishAfterCommit<Tx extends SqlExecutor>(
  run: TransactionRunner<Tx>,
): TransactionRunner<Tx> {
  return async (work) => {
    let enqueued = false;
    const result = await run(async (tx) => {
      const value = await work(tx);
      enqueued = enqueuedIn.has(tx);
      return value;
    });
    if (enqueued) wakeOutboxRelays();
    return result;
  };
}

/**
 * Wakes the relays of this process after a commit that wrote outbox rows itself (a SQL function
 * given `outboxRow`'s columns) rather than through `enqueueEvents` in a wrapped transaction.
 */
export function wakeOutboxRelays(): void {
  for (const wake of relaysInProcess) wake();
}

/** The columns of an event's outbox row, as `enqueueEvents` writes them. */
export function outboxRow(event: DomainEvent) {
  // The relay publishes later, outside the request: the row keeps the request's trace context
  // (null when tracing is off) so that the publish and the consumers continue its trace.
  const traceContext = currentTraceContext();
  return {
    id: event.id,
    topic: EVENT_TYPES[event.type].topic,
    key: event.aggregateId,
    type: event.type,
    payload: JSON.stringify(event),
    traceContext: traceContext && JSON.stringify(traceContext),
  };
}

export async function enqueueEvents(tx: SqlExecutor, events: DomainEvent[]): Promise<void> {
  if (events.length > 0) enqueuedIn.add(tx);
  for (const event of events) {
    const row = outboxRow(event);
    await tx.$executeRawUnsafe(
      `INSERT INTO outbox_events (id, topic, key, type, payload, trace_context)
       VALUES ($1::uuid, $2, $3, $4, $5::jsonb, $6::jsonb)`,
      row.id,
      row.topic,
      row.key,
      row.type,
      row.payload,
      row.traceContext,
    );
  }
}

interface OutboxRow {
  seq: string;
  id: string;
  topic: string;
  key: string;
  type: string;
  payload: unknown;
  trace_context: Record<string, string> | null;
}

export interface OutboxRelay {
  /**
   * Publishes what is pending, batch after batch; resolves with the number published (0 when
   * another replica holds the publishing lock: that replica publishes them).
   */
  flush(): Promise<number>;
  /** Publishes after `wakeDelayMs` instead of the next poll (publishAfterCommit calls it). */
  wake(): void;
  stop(): Promise<void>;
}

export interface OutboxRelayOptions {
  transaction: TransactionRunner;
  producer: Producer;
  topicPrefix: string;
  logger: Logger;
  pollIntervalMs?: number;
  /**
   * How long a wake-up waits before it publishes (default 20 ms), so that the commits of a busy
   * moment share one flush instead of one flush each.
   */
  wakeDelayMs?: number;
  batchSize?: number;
  /** Published rows older than this are deleted (they are only kept for inspection). */
  retentionMs?: number;
  /** The service's tracer: each message gets a publish span (docs/adr/0080). */
  tracer?: Tracer;
}

/** Any number for the advisory lock, the same in every replica of one service. */
const RELAY_LOCK = 7_242_002;

export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { transaction, producer, topicPrefix, logger } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 200;
  const wakeDelayMs = options.wakeDelayMs ?? 20;
  const batchSize = options.batchSize ?? 200;
  const retentionMs = options.retentionMs ?? 7 * 24 * 60 * 60 * 1000;
  const tracer = options.tracer ?? eventsTracer();
  let stopped = false;
  let sleeping: { timer: NodeJS.Timeout; resolve: () => void; cut: boolean } | null = null;
  // Set by a wake-up that came while a flush ran: that flush may have read before the commit.
  let woken = false;
  let lastCleanup = 0;

  const publishBatch = () =>
    transaction(async (tx) => {
      // One publisher per service at a time keeps the per-aggregate order across replicas.
      const [lock] = await tx.$queryRawUnsafe<{ locked: boolean }[]>(
        `SELECT pg_try_advisory_xact_lock(${RELAY_LOCK}) AS locked`,
      );
      if (!lock?.locked) return 0;
      // ORDER BY names the table's column: a bare \`seq\` would be the text alias of the select
      // list, and '10' sorts before '9' (an aggregate's later event went out first).
      const rows = await tx.$queryRawUnsafe<OutboxRow[]>(
        `SELECT seq::text AS seq, id::text AS id, topic, key, type, payload, trace_context
           FROM outbox_events WHERE published_at IS NULL ORDER BY outbox_events.seq LIMIT $1`,
        batchSize,
      );
      if (rows.length === 0) return 0;
      const byTopic = new Map<string, OutboxRow[]>();
      for (const row of rows) byTopic.set(row.topic, [...(byTopic.get(row.topic) ?? []), row]);
      const spans: Span[] = [];
      const topicMessages = [...byTopic].map(([logical, topicRows]) => {
        const topic = physicalTopic(logical as Parameters<typeof physicalTopic>[0], topicPrefix);
        return {
          topic,
          messages: topicRows.map((row) => {
            const { span, headers } = startPublishSpan(tracer, topic, row, row.trace_context);
            spans.push(span);
            return {
              key: row.key,
              value: JSON.stringify(row.payload),
              headers: { 'event-type': row.type, 'event-id': row.id, ...headers },
            };
          }),
        };
      });
      try {
        await producer.sendBatch({ acks: -1, topicMessages });
      } catch (error) {
        for (const span of spans) endFailed(span, error);
        throw error;
      } finally {
        for (const span of spans) span.end();
      }
      await tx.$executeRawUnsafe(
        `UPDATE outbox_events SET published_at = now() WHERE seq = ANY($1::bigint[])`,
        rows.map((row) => row.seq),
      );
      return rows.length;
    });

  const cleanup = async () => {
    if (Date.now() - lastCleanup < 60 * 60 * 1000) return;
    lastCleanup = Date.now();
    await transaction(async (tx) =>
      tx.$executeRawUnsafe(
        `DELETE FROM outbox_events WHERE published_at < now() - ($1::bigint * interval '1 millisecond')`,
        retentionMs,
      ),
    );
  };

  let running: Promise<number> | null = null;
  const flush = () => {
    // Serialise flushes within this process; the advisory lock does it across processes.
    running ??= (async () => {
      let total = 0;
      try {
        // A short batch was all there was; what commits later wakes the relay (or its poll).
        for (
          let published = await publishBatch();
          published > 0;
          published = published < batchSize ? 0 : await publishBatch()
        ) {
          total += published;
        }
      } finally {
        running = null;
      }
      return total;
    })();
    return running;
  };

  const sleep = (ms: number, cut: boolean) =>
    new Promise<void>((resolve) => {
      sleeping = { timer: setTimeout(resolve, ms), resolve, cut };
    }).finally(() => (sleeping = null));
  const wake = () => {
    woken = true;
    // The first wake-up shortens the poll's wait to the delay; later ones change nothing.
    if (sleeping && !sleeping.cut) {
      clearTimeout(sleeping.timer);
      sleeping.timer = setTimeout(sleeping.resolve, wakeDelayMs);
      sleeping.cut = true;
    }
  };
  relaysInProcess.add(wake);

  const loop = (async () => {
    while (!stopped) {
      woken = false;
      try {
        const published = await flush();
        if (published > 0) logger.debug({ published }, 'outbox published');
        await cleanup();
      } catch (error) {
        logger.error({ err: error }, 'outbox relay failed; retrying');
      }
      if (stopped) break;
      await (woken ? sleep(wakeDelayMs, true) : sleep(pollIntervalMs, false));
    }
  })();

  return {
    flush,
    wake,
    async stop() {
      stopped = true;
      relaysInProcess.delete(wake);
      if (sleeping) {
        clearTimeout(sleeping.timer);
        sleeping.resolve();
      }
      await loop;
    },
  };
}
