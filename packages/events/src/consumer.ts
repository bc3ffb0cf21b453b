import type { Consumer, IHeaders, Kafka, KafkaMessage, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { z } from 'zod';
import {
  EVENT_TYPES,
  MalformedEventError,
  parseEvent,
  type DomainEvent,
  type EventType,
} from './schemas.ts';
import type { SqlExecutor, TransactionRunner } from './sql.ts';
import { TOPICS, physicalTopic, type TopicName } from './topics.ts';
import { eventsTracer, inConsumeSpan, type Tracer } from './trace-context.ts';

/**
 * Consumers (docs/adr/0018). A message is parked on the dead-letter topic only when it can never
 * be handled: it cannot be read (not JSON, bad envelope, data failing its schema), its event type
 * came on another service's topic, or its handler refuses it (UnhandleableEventError, a zod
 * error, malformed JSON). Any other handler failure is our own infrastructure (database,
 * network, a deadlock) and is retried until it succeeds: that partition is paused for a capped
 * exponential backoff and the message is read again, while the other partitions go on.
 */

/**
 * Thrown by a handler for an event it can never handle, whatever is retried (e.g. it refers to
 * something that cannot exist). The event is parked at once, to be looked at and replayed.
 */
export class UnhandleableEventError extends Error {
  constructor(reason: string, options?: ErrorOptions) {
    super(reason, options);
    this.name = 'UnhandleableEventError';
  }
}

/** Whether a handler error means "never", as opposed to "not now" (retried). */
export function isUnhandleableError(error: unknown): boolean {
  return (
    error instanceof UnhandleableEventError ||
    error instanceof MalformedEventError ||
    error instanceof z.core.$ZodError ||
    error instanceof SyntaxError
  );
}

export type EventHandlers = {
  [K in EventType]?: (event: DomainEvent<K>) => Promise<void>;
};

export interface EventConsumerOptions {
  kafka: Kafka;
  /** Used for the dead-letter topic; any connected producer of the service. */
  producer: Producer;
  groupId: string;
  topics: TopicName[];
  topicPrefix: string;
  handlers: EventHandlers;
  logger: Logger;
  /**
   * Partitions handled at the same time (default 4). Order holds within a partition, which is
   * all the contract promises: events are keyed by aggregate id.
   */
  partitionsConsumedConcurrently?: number;
  /**
   * Keys of one partition's batch handled at the same time (default 8); each key's events one
   * after the other, in order.
   */
  keysConcurrently?: number;
  /**
   * Handler attempts before a failing message is parked although its error looks transient.
   * Default: never (retried until it succeeds); money consumers must keep the default.
   */
  maxAttempts?: number;
  /** First pause after a failed attempt (default 250 ms), doubling up to `retryMaxMs`. */
  retryBaseMs?: number;
  /** Longest pause between two attempts (default 30 s). */
  retryMaxMs?: number;
  /**
   * How long one handler attempt may take before it counts as failed and is retried (default
   * 60 s). An attempt that never settles (a query waiting for ever) would otherwise hold its
   * partition, and every partition of the group behind kafkajs' fetch, for good and say nothing.
   */
  attemptTimeoutMs?: number;
  /** The service's tracer: each handling is a span continuing the message's trace. */
  tracer?: Tracer;
}

export interface EventConsumer {
  consumer: Consumer;
  /** Stops fetching, finishes the message in hand and commits offsets. */
  stop(): Promise<void>;
}

/** The headers the consumer adds when it parks a message; replay removes them again. */
export const PARKING_HEADERS = [
  'original-topic',
  'original-partition',
  'original-offset',
  'consumer-group',
  'reason',
  'reason-kind',
  'parked-at',
] as const;

export type ParkReasonKind = 'malformed' | 'wrong-topic' | 'unhandleable' | 'attempts-exhausted';

/** What one consumer group of this process is doing, read by the metrics (packages/kit). */
export interface ConsumerStats {
  group: string;
  /** The partitions the group gave this member at its last join, by topic. */
  assigned: Record<string, number[]>;
  partitions: {
    topic: string;
    partition: number;
    /** Messages behind the high watermark after the last message handled (null: none yet). */
    lag: number | null;
    /** The offset after the last message handled or parked (null: none yet). */
    position: string | null;
    /** The message in hand whose handler keeps failing, while it is retried. */
    retrying: { offset: string; attempts: number; sinceMs: number } | null;
  }[];
  /** Messages this process parked, by original topic and reason kind. */
  parked: { topic: string; kind: ParkReasonKind; count: number }[];
}

type StatsSource = () => ConsumerStats;
const statsSources = new WeakMap<Kafka, Set<StatsSource>>();

/** The stats of every running consumer started with this Kafka client. */
export function consumerStats(kafka: Kafka): ConsumerStats[] {
  return [...(statsSources.get(kafka) ?? [])].map((source) => source());
}

interface Retrying {
  offset: string;
  attempts: number;
  sinceMs: number;
}

interface PartitionState {
  topic: string;
  partition: number;
  lag: number | null;
  position: string | null;
  /** The messages whose handler failed and that are read again, by offset. */
  failing: Map<string, Retrying>;
}

/** The failing message the partition is held at: the lowest offset. */
const firstFailing = (state: PartitionState): Retrying | null =>
  [...state.failing.values()].reduce<Retrying | null>(
    (first, entry) =>
      !first || BigInt(entry.offset) < BigInt(first.offset) ? { ...entry } : first,
    null,
  );

/** A handler attempt that did not settle in time; retried like any other failure of ours. */
export class HandlerTimeoutError extends Error {
  constructor(eventId: string, timeoutMs: number) {
    super(`the handler of ${eventId} did not finish within ${timeoutMs} ms`);
    this.name = 'HandlerTimeoutError';
  }
}

/**
 * `work`, or a HandlerTimeoutError after `timeoutMs`. The attempt itself cannot be cancelled and
 * may still finish later: handlers are idempotent, and the retry's transaction waits for its row
 * locks and unique keys, so the two never both apply.
 */
async function withinDeadline<T>(work: Promise<T>, timeoutMs: number, eventId: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HandlerTimeoutError(eventId, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

type Outcome = { done: true } | { done: false; retryInMs: number };
const DONE: Outcome = { done: true };

/** The backoff before attempt `attempts + 1`: base doubling per attempt, capped. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempts - 1, 30));
}

export async function startEventConsumer(options: EventConsumerOptions): Promise<EventConsumer> {
  const { kafka, producer, topicPrefix, logger } = options;
  const maxAttempts = options.maxAttempts ?? Number.POSITIVE_INFINITY;
  const retryBaseMs = options.retryBaseMs ?? 250;
  const keysConcurrently = Math.max(1, options.keysConcurrently ?? 8);
  const retryMaxMs = options.retryMaxMs ?? 30_000;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 60_000;
  const tracer = options.tracer ?? eventsTracer();
  const groupId = `${topicPrefix}${options.groupId}`;
  // A stop waits for the fetch in flight; a 1 s long-poll keeps stops quick at the cost of a few
  // more idle fetches (data still arrives at once: the broker answers as soon as it has any).
  const consumer = kafka.consumer({
    groupId,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: 1_000,
  });

  const partitions = new Map<string, PartitionState>();
  const parked = new Map<string, { topic: string; kind: ParkReasonKind; count: number }>();
  const resumeTimers = new Set<NodeJS.Timeout>();
  const stateOf = (topic: string, partition: number): PartitionState => {
    const key = `${topic}|${partition}`;
    let state = partitions.get(key);
    if (!state) {
      state = { topic, partition, lag: null, position: null, failing: new Map() };
      partitions.set(key, state);
    }
    return state;
  };

  const park = async (
    topic: string,
    partition: number,
    message: KafkaMessage,
    kind: ParkReasonKind,
    reason: string,
  ) => {
    logger.error(
      { topic, partition, offset: message.offset, kind, reason },
      'event parked on dead-letter topic',
    );
    const headers: IHeaders = { ...message.headers };
    for (const name of PARKING_HEADERS) delete headers[name];
    await producer.send({
      topic: physicalTopic(TOPICS.deadLetter, topicPrefix),
      acks: -1,
      messages: [
        {
          key: message.key,
          value: message.value,
          headers: {
            ...headers,
            'original-topic': topic,
            'original-partition': String(partition),
            'original-offset': message.offset,
            'consumer-group': groupId,
            reason: reason.slice(0, 1000),
            'reason-kind': kind,
            'parked-at': new Date().toISOString(),
          },
        },
      ],
    });
    const key = `${topic}|${kind}`;
    const entry = parked.get(key) ?? { topic, kind, count: 0 };
    entry.count += 1;
    parked.set(key, entry);
  };

  const handle = async (
    topic: string,
    partition: number,
    message: KafkaMessage,
    state: PartitionState,
  ): Promise<Outcome> => {
    let event: DomainEvent | null;
    try {
      event = parseEvent(message.value);
    } catch (error) {
      if (!(error instanceof MalformedEventError)) throw error;
      await park(topic, partition, message, 'malformed', `malformed: ${error.message}`);
      return DONE;
    }
    if (!event) return DONE; // a type this service's contract does not know yet
    // Only the service that owns a type publishes it, on its own topic: anything else is forged
    // or misrouted, and is never trusted.
    const ownTopic = physicalTopic(EVENT_TYPES[event.type].topic, topicPrefix);
    if (topic !== ownTopic) {
      await park(
        topic,
        partition,
        message,
        'wrong-topic',
        `wrong topic: ${event.type} is published on ${ownTopic} only`,
      );
      return DONE;
    }
    const handler = options.handlers[event.type] as ((e: DomainEvent) => Promise<void>) | undefined;
    if (!handler) return DONE;
    const previous = state.failing.get(message.offset) ?? null;
    const attempts = (previous?.attempts ?? 0) + 1;
    try {
      await inConsumeSpan(tracer, { topic, partition, ...message }, event, () =>
        withinDeadline(handler(event), attemptTimeoutMs, event.id),
      );
      if (previous) {
        logger.info(
          { eventId: event.id, type: event.type, attempts },
          'event handled after retries',
        );
      }
      state.failing.delete(message.offset);
      return DONE;
    } catch (error) {
      const message_ = (error as Error)?.message ?? String(error);
      if (isUnhandleableError(error)) {
        state.failing.delete(message.offset);
        await park(topic, partition, message, 'unhandleable', `handler refused: ${message_}`);
        return DONE;
      }
      if (attempts >= maxAttempts) {
        state.failing.delete(message.offset);
        await park(topic, partition, message, 'attempts-exhausted', `handler failed: ${message_}`);
        return DONE;
      }
      state.failing.set(message.offset, {
        offset: message.offset,
        attempts,
        sinceMs: previous?.sinceMs ?? Date.now(),
      });
      const retryInMs = retryDelayMs(attempts, retryBaseMs, retryMaxMs);
      logger.warn(
        { err: error, eventId: event.id, type: event.type, topic, partition, attempts, retryInMs },
        'event handler failed; the partition retries it after a pause',
      );
      return { done: false, retryInMs };
    }
  };

  let assigned: Record<string, number[]> = {};
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    assigned = payload.memberAssignment;
  });
  await consumer.connect();
  await consumer.subscribe({
    topics: options.topics.map((topic) => physicalTopic(topic, topicPrefix)),
    fromBeginning: true,
  });
  await consumer.run({
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 4,
    // Offsets are resolved only up to the first message not yet handled or parked; kafkajs
    // commits them once the batch is done (one commit per batch, not per message).
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, pause, isRunning, isStale }) => {
      const { topic, partition } = batch;
      const state = stateOf(topic, partition);
      // One chain per key, in the partition's order: a key's events one after the other, other
      // keys side by side (docs/adr/0093). Order across keys is chance (which partition a key
      // hashes to), so no consumer may depend on it.
      const chains = new Map<string, KafkaMessage[]>();
      for (const message of batch.messages) {
        const key = message.key?.toString('latin1') ?? '';
        const chain = chains.get(key);
        if (chain) chain.push(message);
        else chains.set(key, [message]);
      }
      const done = new Set<string>();
      let failed: { offset: string; retryInMs: number } | null = null;
      const stopping = () => failed !== null || !isRunning() || isStale();
      const queue = [...chains.values()];
      const worker = async () => {
        for (let chain = queue.shift(); chain; chain = queue.shift()) {
          for (const message of chain) {
            if (stopping()) return;
            const outcome = await handle(topic, partition, message, state);
            if (!outcome.done) {
              // The first failure of the batch (by offset) is the one read again.
              if (!failed || BigInt(message.offset) < BigInt(failed.offset)) {
                failed = { offset: message.offset, retryInMs: outcome.retryInMs };
              }
              break; // the rest of this key waits for it
            }
            done.add(message.offset);
            await heartbeat();
          }
        }
      };
      // Every worker ends before the batch does: with Promise.all, one rejection (a heartbeat or a
      // park failing while Kafka restarts) ended the batch while the other workers went on
      // handling this partition's messages, side by side with kafkajs' next batch of it.
      const workers = await Promise.allSettled(
        Array.from({ length: Math.min(keysConcurrently, queue.length) }, worker),
      );
      const broken = workers.find((result) => result.status === 'rejected');
      if (broken) throw broken.reason;

      // Resolve the handled prefix: every message before it is handled or parked.
      let position: KafkaMessage | null = null;
      for (const message of batch.messages) {
        if (!done.has(message.offset)) break;
        position = message;
      }
      if (position) {
        resolveOffset(position.offset);
        state.lag = Math.max(0, Number(batch.highWatermark) - Number(position.offset) - 1);
        state.position = String(Number(position.offset) + 1);
        for (const offset of state.failing.keys()) {
          if (BigInt(offset) <= BigInt(position.offset)) state.failing.delete(offset);
        }
      }
      const retry = failed as { offset: string; retryInMs: number } | null;
      if (retry && isRunning() && !isStale()) {
        // Pause this partition alone and read it again from the first message not handled
        // after the backoff (a later one already handled comes again: handlers are
        // idempotent). The group keeps heart-beating through the other partitions' fetches, so
        // nothing rebalances, and the committed offset stays before that message.
        const first = batch.messages.find((message) => !done.has(message.offset))!;
        const resume = pause();
        consumer.seek({ topic, partition, offset: first.offset });
        const timer = setTimeout(() => {
          resumeTimers.delete(timer);
          resume();
        }, retry.retryInMs);
        resumeTimers.add(timer);
      }
    },
  });

  const stats: StatsSource = () => ({
    group: groupId,
    assigned: { ...assigned },
    partitions: [...partitions.values()].map((state) => ({
      topic: state.topic,
      partition: state.partition,
      lag: state.lag,
      position: state.position,
      retrying: firstFailing(state),
    })),
    parked: [...parked.values()].map((entry) => ({ ...entry })),
  });
  const sources = statsSources.get(kafka) ?? new Set<StatsSource>();
  statsSources.set(kafka, sources);
  sources.add(stats);

  return {
    consumer,
    async stop() {
      for (const timer of resumeTimers) clearTimeout(timer);
      resumeTimers.clear();
      sources.delete(stats);
      await consumer.disconnect();
    },
  };
}

/**
 * Runs `effect` at most once per (consumer, event id): the handled id is recorded in the same
 * transaction as the effect, so a redelivered or replayed event changes nothing. Resolves to
 * false when the event had already been handled.
 */
export async function handleOnce<Tx extends SqlExecutor>(
  transaction: TransactionRunner<Tx>,
  consumer: string,
  eventId: string,
  effect: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  return transaction(async (tx) => {
    const inserted = await tx.$executeRawUnsafe(
      `INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING`,
      consumer,
      eventId,
    );
    if (inserted === 0) return false;
    await effect(tx);
    return true;
  });
}

/** A consumer's mark of an event it handled (processed_events). */
export interface ProcessedMark {
  consumer: string;
  eventId: string;
}

/**
 * handleOnce in one statement instead of a transaction (docs/adr/0104), for an effect that is
 * itself data-modifying CTEs: `effects` (`name AS (...)`, comma-separated) read `processed`, which
 * holds one row when the mark is new and none when the event was handled before. The mark's
 * unique key decides between two deliveries at once: the second waits for the first's row, then
 * inserts nothing, so its effects do nothing. `sql` is the service's Prisma.sql. Resolves to
 * false when the event had already been handled.
 */
export async function handleOnceInStatement<S>(
  db: { $queryRaw: (query: S) => PromiseLike<unknown> },
  sql: (strings: TemplateStringsArray, ...values: (string | S)[]) => S,
  mark: ProcessedMark,
  effects: S,
): Promise<boolean> {
  const rows = (await db.$queryRaw(sql`
    WITH processed AS (
      INSERT INTO processed_events (consumer, event_id) VALUES (${mark.consumer}, ${mark.eventId}::uuid)
      ON CONFLICT DO NOTHING
      RETURNING event_id
    ), ${effects}
    SELECT count(*)::int AS handled FROM processed`)) as { handled: number }[];
  return (rows[0]?.handled ?? 0) > 0;
}
