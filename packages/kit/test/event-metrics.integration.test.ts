import { randomBytes, randomUUID } from 'node:crypto';
import {
  TOPICS,
  createIdempotentProducer,
  createKafka,
  ensureTopics,
  newEvent,
  physicalTopic,
  startEventConsumer,
  type Admin,
  type EventConsumer,
  type Producer,
} from '@challenge/events';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackUrls } from '../../../scripts/lib/stack-config.mjs';
import { registerEventMetrics } from '../src/metrics.ts';

const logger = pino({ level: 'silent' });
const kafka = createKafka({
  clientId: 'kit-metrics-tests',
  brokers: stackUrls().kafkaBrokers,
  logger,
});
const prefix = `t${randomBytes(4).toString('hex')}.`;
let admin: Admin;
let producer: Producer;
let consumer: EventConsumer | undefined;

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
  await ensureTopics(admin, prefix);
  producer = createIdempotentProducer(kafka);
  await producer.connect();
});

afterAll(async () => {
  await consumer?.stop();
  await producer?.disconnect();
  const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
  if (topics.length) await admin.deleteTopics({ topics });
  await admin.deleteGroups([`${prefix}metrics`]).catch(() => undefined);
  await admin.disconnect();
});

/** The value of one series in the registry's text output (undefined when absent). */
async function sample(registry: Registry, name: string, labels: Record<string, string> = {}) {
  const text = await registry.metrics();
  const line = text
    .split('\n')
    .find((l) =>
      l.startsWith(`${name}{`) || l.startsWith(`${name} `)
        ? Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`))
        : false,
    );
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

async function eventually(check: () => Promise<void>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('event metrics', () => {
  it('exports lag, a retrying handler, parked messages and the dead-letter count', async () => {
    const registry = new Registry();
    registerEventMetrics(registry, { kafka, admin, topicPrefix: prefix });
    const userId = randomUUID();
    const event = newEvent('UserVerified', {
      aggregateId: userId,
      actorId: null,
      data: { userId },
    });
    let healthy = false;
    consumer = await startEventConsumer({
      kafka,
      producer,
      groupId: 'metrics',
      topics: [TOPICS.identity],
      topicPrefix: prefix,
      logger,
      retryBaseMs: 50,
      retryMaxMs: 200,
      handlers: {
        UserVerified: async () => {
          if (!healthy) throw new Error('connect ECONNREFUSED 127.0.0.1:54329');
        },
      },
    });
    const topic = physicalTopic(TOPICS.identity, prefix);
    const [sent] = await producer.send({
      topic,
      acks: -1,
      messages: [
        { key: userId, value: 'not json' },
        { key: userId, value: JSON.stringify(event) },
      ],
    });
    const group = `${prefix}metrics`;
    const partition = String(sent!.partition);

    await eventually(async () => {
      expect(await sample(registry, 'events_consumer_retrying_handlers', { group })).toBe(1);
      expect(
        await sample(registry, 'events_consumer_retrying_seconds', { group, topic, partition }),
      ).toBeGreaterThan(0);
      expect(
        await sample(registry, 'events_parked_total', { group, topic, kind: 'malformed' }),
      ).toBe(1);
      expect(await sample(registry, 'events_deadletter_messages')).toBe(1);
    });

    healthy = true;
    await eventually(async () => {
      expect(await sample(registry, 'events_consumer_retrying_handlers', { group })).toBe(0);
      expect(
        await sample(registry, 'events_consumer_retrying_seconds', { group, topic, partition }),
      ).toBe(0);
      expect(
        await sample(registry, 'events_consumer_lag_messages', { group, topic, partition }),
      ).toBe(0);
    });
  });
});

describe('consumer lag', () => {
  it('counts the messages waiting behind a handler that is stuck on one', async () => {
    // Topics of its own: the test above leaves a UserVerified on one partition of `prefix`'s
    // identity topic, which this group (from the beginning) would also wait behind.
    const lagPrefix = `${prefix}lag.`;
    await ensureTopics(admin, lagPrefix);
    const registry = new Registry();
    registerEventMetrics(registry, { kafka, admin, topicPrefix: lagPrefix });
    const userId = randomUUID();
    const verified = () =>
      newEvent('UserVerified', { aggregateId: userId, actorId: null, data: { userId } });
    let release: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const lagConsumer = await startEventConsumer({
      kafka,
      producer,
      groupId: 'lag',
      topics: [TOPICS.identity],
      topicPrefix: lagPrefix,
      logger,
      handlers: { UserVerified: () => stuck },
    });
    try {
      const topic = physicalTopic(TOPICS.identity, lagPrefix);
      // One key: one partition, in order. The first message holds the handler; four wait.
      const [sent] = await producer.send({
        topic,
        acks: -1,
        messages: Array.from({ length: 5 }, () => ({
          key: userId,
          value: JSON.stringify(verified()),
        })),
      });
      const group = `${lagPrefix}lag`;
      const partition = String(sent!.partition);
      await eventually(async () => {
        expect(
          await sample(registry, 'events_consumer_lag_messages', { group, topic, partition }),
        ).toBe(5);
      });
      release();
      await eventually(async () => {
        expect(
          await sample(registry, 'events_consumer_lag_messages', { group, topic, partition }),
        ).toBe(0);
      });
    } finally {
      release();
      await lagConsumer.stop();
      await admin.deleteGroups([`${lagPrefix}lag`]).catch(() => undefined);
    }
  });
});
