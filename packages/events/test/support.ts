/**
 * Local test helpers. This package sits below @challenge/testing in the dependency graph, so it
 * cannot use that package (a cycle): an isolated database and topic prefix per test file.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type KafkaMessage } from 'kafkajs';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { stackUrls } from '../../../scripts/lib/stack-config.mjs';
import { ensureTopics } from '../src/kafka.ts';
import type { SqlExecutor, TransactionRunner } from '../src/sql.ts';
import { physicalTopic, type TopicName } from '../src/topics.ts';

export const stack = stackUrls();

/** The two tables exactly as the services' migrations create them, plus a counter for effects. */
const SCHEMA = `
CREATE TABLE "outbox_events" ("seq" BIGSERIAL NOT NULL, "id" UUID NOT NULL, "topic" TEXT NOT NULL, "key" TEXT NOT NULL, "type" TEXT NOT NULL, "payload" JSONB NOT NULL, "trace_context" JSONB, "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "published_at" TIMESTAMP(3), CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("seq"));
CREATE UNIQUE INDEX "outbox_events_id_key" ON "outbox_events"("id");
CREATE INDEX "outbox_events_published_at_seq_idx" ON "outbox_events"("published_at", "seq");
CREATE TABLE "processed_events" ("consumer" TEXT NOT NULL, "event_id" UUID NOT NULL, "handled_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id"));
CREATE TABLE "counters" ("name" TEXT PRIMARY KEY, "value" INTEGER NOT NULL DEFAULT 0);
`;

/** An SqlExecutor over a pg client or pool, shaped like Prisma's raw methods. */
export function executor(client: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    async $executeRawUnsafe(query: string, ...values: unknown[]) {
      return (await client.query(query, values)).rowCount ?? 0;
    },
    async $queryRawUnsafe<T>(query: string, ...values: unknown[]) {
      return (await client.query(query, values)).rows as T;
    },
  };
}

/** BEGIN/COMMIT on one pooled client; ROLLBACK when `work` throws. */
export function transactionRunner(pool: pg.Pool): TransactionRunner {
  return async <R>(work: (tx: SqlExecutor) => Promise<R>): Promise<R> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(executor(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
}

export interface TestDatabase {
  name: string;
  pool: pg.Pool;
  sql: SqlExecutor;
  transaction: TransactionRunner;
  drop(): Promise<void>;
}

async function withAdmin(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: stack.postgresAdminUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** A name for a test database that does not exist yet. */
export const testDatabaseName = () => `events_t_${randomBytes(5).toString('hex')}`;

/** A fresh database for one test file, with the outbox and processed-events tables. */
export async function createTestDatabase(name = testDatabaseName()): Promise<TestDatabase> {
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
  const pool = new pg.Pool({ connectionString: stack.databaseUrl(name), max: 12 });
  // pool.end() resolves before its idle connections have closed, and DROP ... WITH (FORCE) then
  // cuts them: an expected error, which without a listener the pool throws as uncaught (it failed
  // a run with "terminating connection due to administrator command").
  pool.on('error', () => undefined);
  await pool.query(SCHEMA);
  return {
    name,
    pool,
    sql: executor(pool),
    transaction: transactionRunner(pool),
    async drop() {
      await pool.end();
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

export const silentLogger: Logger = pino({ level: 'silent' });

export const kafka = new Kafka({
  clientId: 'events-tests',
  brokers: stack.kafkaBrokers,
  logLevel: logLevel.NOTHING,
});

/** A topic prefix for one test file, with every topic created; `remove` deletes them (and its groups). */
export async function createTopics(): Promise<{ prefix: string; remove(): Promise<void> }> {
  const prefix = `t${randomBytes(4).toString('hex')}.`;
  const admin = kafka.admin();
  await admin.connect();
  try {
    await ensureTopics(admin, prefix);
  } finally {
    await admin.disconnect();
  }
  return {
    prefix,
    async remove() {
      const cleaner = kafka.admin();
      await cleaner.connect();
      try {
        const topics = (await cleaner.listTopics()).filter((topic) => topic.startsWith(prefix));
        if (topics.length) await cleaner.deleteTopics({ topics });
        // Consumer groups of this file (the consumers' and the readers'); all are stopped by now.
        const groups = (await cleaner.listGroups()).groups
          .map((g) => g.groupId)
          .filter((id) => id.startsWith(prefix));
        if (groups.length) await cleaner.deleteGroups(groups).catch(() => undefined);
      } finally {
        await cleaner.disconnect();
      }
    },
  };
}

/** How many messages a topic holds in total (the sum over partitions of high minus low). */
export async function messageCount(prefix: string, topic: TopicName): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(physicalTopic(topic, prefix));
    return offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  } finally {
    await admin.disconnect();
  }
}

export type ReadMessage = KafkaMessage & { partition: number };

/** Every message a topic holds right now, read from the beginning up to the end offsets. */
export async function readTopic(
  prefix: string,
  topic: TopicName,
  timeoutMs = 30_000,
): Promise<ReadMessage[]> {
  const name = physicalTopic(topic, prefix);
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(name).finally(() => admin.disconnect());
  const pending = new Map(
    ends.filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high)]),
  );
  const messages: ReadMessage[] = [];
  if (pending.size === 0) return messages;
  const consumer = kafka.consumer({ groupId: `${prefix}reader-${randomBytes(4).toString('hex')}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: name, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out reading ${name}`)), timeoutMs);
      void consumer.run({
        eachMessage: async ({ partition, message }) => {
          messages.push({ ...message, partition });
          if (Number(message.offset) + 1 >= (pending.get(partition) ?? 0))
            pending.delete(partition);
          if (pending.size === 0) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
    return messages.sort(
      (a, b) => a.partition - b.partition || Number(a.offset) - Number(b.offset),
    );
  } finally {
    await consumer.disconnect();
  }
}

/** A message's value parsed as JSON (null for an empty value). */
export const jsonOf = (message: KafkaMessage): unknown =>
  JSON.parse(message.value?.toString() ?? 'null');

/** The `id` of the event a message carries. */
export const idOf = (message: KafkaMessage): string => (jsonOf(message) as { id: string }).id;

/** A header's value as a string. */
export const header = (message: KafkaMessage, name: string): string | undefined =>
  message.headers?.[name]?.toString();

/** Polls `check` until it stops throwing (and returns its value), or rethrows after the timeout. */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 30_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
