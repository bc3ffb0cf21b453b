import { randomBytes } from 'node:crypto';
import '@challenge/events/kafkajs-timers';
import { Kafka, Partitioners, logLevel, type KafkaMessage } from 'kafkajs';
import { stack } from './stack.ts';

/** A topic's base name, e.g. 'identity.v1' (TOPICS in @challenge/events). */
type TopicName = string;
const physicalTopic = (topic: TopicName, prefix: string) => `${prefix}${topic}`;

const kafka = new Kafka({
  clientId: 'tests',
  brokers: stack.kafkaBrokers,
  logLevel: logLevel.NOTHING,
});

/** Sends raw values as they are, bypassing every schema: for redelivery and malformed input. */
export async function produceRaw(
  topicPrefix: string,
  topic: TopicName,
  messages: { key?: string; value: string }[],
): Promise<void> {
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  try {
    await producer.send({ topic: physicalTopic(topic, topicPrefix), acks: -1, messages });
  } finally {
    await producer.disconnect();
  }
}

/** Every message of a topic from the beginning, read until `until` holds or the time runs out. */
export async function readTopic(
  topicPrefix: string,
  topic: TopicName,
  until: (messages: KafkaMessage[]) => boolean,
  timeoutMs = 20_000,
): Promise<KafkaMessage[]> {
  const consumer = kafka.consumer({ groupId: `reader-${randomBytes(4).toString('hex')}` });
  const messages: KafkaMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: physicalTopic(topic, topicPrefix), fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out reading ${topic}`)), timeoutMs);
      void consumer.run({
        eachMessage: async ({ message }) => {
          messages.push(message);
          if (until(messages)) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
    return messages;
  } finally {
    await consumer.disconnect();
  }
}

/** Removes a test file's topics so that the broker does not collect thousands of them. */
export async function deleteTopics(topicPrefix: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((name) => name.startsWith(topicPrefix));
    if (topics.length) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

/** Waits until a consumer group has committed every message of a topic (it has caught up). */
export async function waitForCaughtUp(
  topicPrefix: string,
  groupId: string,
  topic: TopicName,
  timeoutMs = 30_000,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const name = physicalTopic(topic, topicPrefix);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ends = await admin.fetchTopicOffsets(name);
      const [committed] = await admin.fetchOffsets({
        groupId: `${topicPrefix}${groupId}`,
        topics: [name],
      });
      const behind = ends.some((end) => {
        const done =
          committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? '-1';
        return Number(end.high) > 0 && Number(done) < Number(end.high);
      });
      if (!behind) return;
      if (Date.now() > deadline) throw new Error(`${groupId} did not catch up on ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await admin.disconnect();
  }
}
