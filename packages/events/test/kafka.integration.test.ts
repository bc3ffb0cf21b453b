import { randomBytes } from 'node:crypto';
import { ConfigResourceTypes, type Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKafka, ensureTopics, pingKafka } from '../src/kafka.ts';
import { TOPICS, TOPIC_RETENTION_MS, physicalTopic } from '../src/topics.ts';
import { kafka, silentLogger, stack } from './support.ts';

const prefix = `t${randomBytes(4).toString('hex')}.`;
let admin: Admin;

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
});

afterAll(async () => {
  const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
  if (topics.length) await admin.deleteTopics({ topics });
  await admin.disconnect();
});

const retentionOf = async (topic: string) => {
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['retention.ms'] }],
  });
  return resources[0]?.configEntries.find((entry) => entry.configName === 'retention.ms');
};

describe('ensureTopics', () => {
  it('creates every topic under the prefix with its partitions, and is safe to run again', async () => {
    await ensureTopics(admin, prefix, 2);
    await ensureTopics(admin, prefix, 2);
    const names = Object.values(TOPICS).map((topic) => physicalTopic(topic, prefix));
    const existing = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
    expect(existing.sort()).toEqual([...names].sort());
    const { topics } = await admin.fetchTopicMetadata({ topics: names });
    for (const topic of topics) expect(topic.partitions, topic.name).toHaveLength(2);
  });

  it('gives the e-mail command topic a short retention and the dead-letter topic a long one', async () => {
    const commands = await retentionOf(physicalTopic(TOPICS.notificationCommands, prefix));
    expect(commands?.configValue).toBe(String(60 * 60 * 1000));
    expect(commands?.isDefault).toBe(false);
    const dead = await retentionOf(physicalTopic(TOPICS.deadLetter, prefix));
    expect(dead?.configValue).toBe(String(TOPIC_RETENTION_MS[TOPICS.deadLetter]));
    // A domain topic keeps the broker default.
    expect((await retentionOf(physicalTopic(TOPICS.wallet, prefix)))?.isDefault).toBe(true);
  });

  it('pingKafka resolves against the running broker', async () => {
    await expect(pingKafka(admin)).resolves.toBeUndefined();
  });
});

describe("kafkajs' request queue timers", () => {
  it('set no timer from a negative delay, so an idle connection does not wake every millisecond', async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const client = createKafka({
      clientId: 'events-timer-test',
      brokers: stack.kafkaBrokers,
      logger: silentLogger,
    });
    const producer = client.producer();
    try {
      // Connecting sends several requests; each answer scheduled the next queue check.
      await producer.connect();
      const delays = setTimeoutSpy.mock.calls.map(([, ms]) => ms);
      expect(delays.filter((ms) => !(typeof ms === 'number' && ms >= 1))).toEqual([]);
    } finally {
      setTimeoutSpy.mockRestore();
      await producer.disconnect();
    }
  });
});
