import {
  Kafka,
  Partitioners,
  logLevel,
  type Admin,
  type LogEntry,
  type Producer,
  type SASLOptions,
} from 'kafkajs';
import type { Logger } from 'pino';
// kafkajs 2.2.4's idle connections poll every millisecond from a negative delay: fixed here.
import './kafkajs-timers.mjs';
import { TOPICS, TOPIC_RETENTION_MS, physicalTopic } from './topics.ts';

export type { Admin, Kafka, Producer };

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * How the clients reach brokers that require it: TLS (optionally trusting a private CA) and
 * SASL (PLAIN or SCRAM). Built from KAFKA_SSL, KAFKA_SSL_CA and KAFKA_SASL_* by packages/kit.
 */
export interface KafkaSecurity {
  ssl?: boolean | { ca: string[] };
  sasl?: SASLOptions;
}

export function createKafka(
  options: {
    clientId: string;
    brokers: string[];
    logger: Logger;
  } & KafkaSecurity,
): Kafka {
  const logger = options.logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    ...(options.ssl ? { ssl: options.ssl } : {}),
    ...(options.sasl ? { sasl: options.sasl } : {}),
    logLevel: logLevel.WARN,
    retry: { retries: 8, initialRetryTime: 200 },
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...rest } = log;
        logger[LEVELS[level] ?? 'info'](rest, message);
      },
  });
}

/**
 * The outbox relay's producer: idempotent, so a retried send never duplicates or reorders.
 * Idempotence needs unbounded retries; while Kafka is away the relay simply waits, and the outbox
 * keeps every event. The partitioner is the Java client's (murmur2), so keys land where other
 * Kafka clients would put them.
 */
export function createIdempotentProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
    retry: { retries: Number.MAX_SAFE_INTEGER, maxRetryTime: 5_000 },
  });
}

/**
 * Creates every topic that does not exist yet (idempotent, safe to run at each start), then
 * waits until each partition has a leader: another process starting at the same moment may have
 * created the topics a moment ago, and a consumer that subscribes before the broker hosts them
 * fails. A broker that has just created topics may briefly answer that it does not host them
 * yet; that is retried.
 */
export async function ensureTopics(admin: Admin, prefix: string, partitions = 3): Promise<void> {
  const topics = Object.values(TOPICS).map((topic) => physicalTopic(topic, prefix));
  for (let attempt = 1; ; attempt += 1) {
    try {
      const existing = new Set(await admin.listTopics());
      const missing = Object.values(TOPICS).filter(
        (topic) => !existing.has(physicalTopic(topic, prefix)),
      );
      if (missing.length > 0) {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => {
            const retention = TOPIC_RETENTION_MS[topic];
            return {
              topic: physicalTopic(topic, prefix),
              numPartitions: partitions,
              configEntries: retention ? [{ name: 'retention.ms', value: String(retention) }] : [],
            };
          }),
        });
      }
      const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
      const leaderless = metadata.some((topic) =>
        topic.partitions.some((partition) => partition.leader < 0),
      );
      if (!leaderless) return;
      throw Object.assign(new Error('topics without a leader yet'), { retriable: true });
    } catch (error) {
      const retriable = (error as { retriable?: boolean }).retriable === true;
      if (!retriable || attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

export async function pingKafka(admin: Admin): Promise<void> {
  const cluster = await admin.describeCluster();
  if (cluster.brokers.length === 0) throw new Error('no Kafka brokers');
}
