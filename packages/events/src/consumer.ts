import type { Consumer, Kafka, KafkaMessage, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { MalformedEventError, parseEvent, type DomainEvent, type EventType } from './schemas.ts';
import type { SqlExecutor, TransactionRunner } from './sql.ts';
import { TOPICS, physicalTopic, type TopicName } from './topics.ts';

/**
 * Consumers. A message that cannot be read (not JSON, bad envelope, bad data) is parked on the
 * dead-letter topic and skipped at once: it can never become readable, and it must not block
 * the partition. A handler failure is retried with backoff (the database may be restarting);
 * one that keeps failing is parked too, with its error, so that it can be replayed after a fix.
 */

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
  /** Handler attempts before a message is parked; the backoff doubles from `retryBaseMs`. */
  maxAttempts?: number;
  retryBaseMs?: number;
}

export interface EventConsumer {
  consumer: Consumer;
  /** Stops fetching, finishes the message in hand and commits offsets. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startEventConsumer(options: EventConsumerOptions): Promise<EventConsumer> {
  const { kafka, producer, topicPrefix, logger } = options;
  const maxAttempts = options.maxAttempts ?? 8;
  const retryBaseMs = options.retryBaseMs ?? 250;
  const groupId = `${topicPrefix}${options.groupId}`;
  // A stop waits for the fetch in flight; a 1 s long-poll keeps stops quick at the cost of a few
  // more idle fetches (data still arrives at once: the broker answers as soon as it has any).
  const consumer = kafka.consumer({
    groupId,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: 1_000,
  });

  const park = async (topic: string, partition: number, message: KafkaMessage, reason: string) => {
    logger.error(
      { topic, partition, offset: message.offset, reason },
      'event parked on dead-letter topic',
    );
    await producer.send({
      topic: physicalTopic(TOPICS.deadLetter, topicPrefix),
      acks: -1,
      messages: [
        {
          key: message.key,
          value: message.value,
          headers: {
            'original-topic': topic,
            'original-partition': String(partition),
            'original-offset': message.offset,
            'consumer-group': groupId,
            reason: reason.slice(0, 1000),
          },
        },
      ],
    });
  };

  await consumer.connect();
  await consumer.subscribe({
    topics: options.topics.map((topic) => physicalTopic(topic, topicPrefix)),
    fromBeginning: true,
  });
  await consumer.run({
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 4,
    eachMessage: async ({ topic, partition, message, heartbeat }) => {
      let event: DomainEvent | null;
      try {
        event = parseEvent(message.value);
      } catch (error) {
        if (!(error instanceof MalformedEventError)) throw error;
        await park(topic, partition, message, `malformed: ${error.message}`);
        return;
      }
      if (!event) return; // a type this service's contract does not know yet
      const handler = options.handlers[event.type] as
        ((e: DomainEvent) => Promise<void>) | undefined;
      if (!handler) return;
      for (let attempt = 1; ; attempt += 1) {
        try {
          await handler(event);
          return;
        } catch (error) {
          const log = { err: error, eventId: event.id, type: event.type, attempt };
          if (attempt >= maxAttempts) {
            await park(topic, partition, message, `handler failed: ${(error as Error).message}`);
            return;
          }
          logger.warn(log, 'event handler failed; retrying');
          await sleep(retryBaseMs * 2 ** (attempt - 1));
          await heartbeat();
        }
      }
    },
  });

  return {
    consumer,
    async stop() {
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
