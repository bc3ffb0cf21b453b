import { randomUUID } from 'node:crypto';
import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEventConsumer, type EventConsumer, type EventHandlers } from '../src/consumer.ts';
import { createIdempotentProducer, createKafka } from '../src/kafka.ts';
import { newEvent } from '../src/outbox.ts';
import type { DomainEvent } from '../src/schemas.ts';
import { TOPICS } from '../src/topics.ts';
import {
  createTopics,
  eventually,
  header,
  readTopic,
  silentLogger,
  stack,
  type ReadMessage,
} from './support.ts';

const kafka = createKafka({
  clientId: 'events-consumer-tests',
  brokers: stack.kafkaBrokers,
  logger: silentLogger,
});
let topics: { prefix: string; remove(): Promise<void> };
let producer: Producer;
const running: EventConsumer[] = [];

beforeAll(async () => {
  topics = await createTopics();
  producer = createIdempotentProducer(kafka);
  await producer.connect();
});

afterAll(async () => {
  await Promise.all(running.map((consumer) => consumer.stop()));
  await producer?.disconnect();
  await topics?.remove();
});

/** Sends raw values to identity.v1 under one key (so one partition); returns where they landed. */
async function produce(
  key: string,
  values: string[],
): Promise<{ partition: number; offsets: string[] }> {
  const [meta] = await producer.send({
    topic: `${topics.prefix}${TOPICS.identity}`,
    acks: -1,
    messages: values.map((value) => ({ key, value })),
  });
  const base = BigInt(meta!.baseOffset ?? '0');
  return { partition: meta!.partition, offsets: values.map((_, i) => String(base + BigInt(i))) };
}

async function consume(
  groupId: string,
  handlers: EventHandlers,
  retry = { maxAttempts: 4, retryBaseMs: 10 },
) {
  const consumer = await startEventConsumer({
    kafka,
    producer,
    groupId,
    topics: [TOPICS.identity],
    topicPrefix: topics.prefix,
    handlers,
    logger: silentLogger,
    ...retry,
  });
  running.push(consumer);
  return consumer;
}

/** Dead letters parked by one consumer group. */
const parkedBy = async (groupId: string): Promise<ReadMessage[]> =>
  (await readTopic(topics.prefix, TOPICS.deadLetter)).filter(
    (m) => header(m, 'consumer-group') === `${topics.prefix}${groupId}`,
  );

const verified = (userId = randomUUID()) =>
  newEvent('UserVerified', { aggregateId: userId, actorId: null, data: { userId } });
const json = (event: unknown) => JSON.stringify(event);

describe('event consumer', () => {
  it('parks malformed messages with their origin and still handles the next event on the partition', async () => {
    const key = randomUUID();
    const good = verified(key);
    const badData = { ...verified(key), data: { userId: 'not-a-uuid' } };
    const sent = await produce(key, ['not json', json(badData), json(good)]);
    const handled: string[] = [];
    await consume('malformed', { UserVerified: async (event) => void handled.push(event.id) });

    await eventually(() => expect(handled).toContain(good.id));
    const parked = (await parkedBy('malformed')).filter((m) => m.key?.toString() === key);
    expect(parked.map((m) => m.value?.toString())).toEqual(['not json', json(badData)]);
    parked.forEach((message, i) => {
      expect(header(message, 'original-topic')).toBe(`${topics.prefix}${TOPICS.identity}`);
      expect(header(message, 'original-partition')).toBe(String(sent.partition));
      expect(header(message, 'original-offset')).toBe(sent.offsets[i]);
    });
    expect(header(parked[0]!, 'reason')).toBe('malformed: not JSON');
    expect(header(parked[1]!, 'reason')).toMatch(/^malformed: bad UserVerified data: /);
    expect(handled.filter((id) => id === good.id)).toHaveLength(1);
  });

  it('retries a failing handler with backoff and handles the event once when it recovers', async () => {
    const key = randomUUID();
    const [flaky, next] = [verified(key), verified(key)];
    let attempts = 0;
    const handled: string[] = [];
    await consume('flaky', {
      UserVerified: async (event) => {
        if (event.id === flaky.id && ++attempts <= 2) throw new Error(`attempt ${attempts} failed`);
        handled.push(event.id);
      },
    });
    await produce(key, [json(flaky), json(next)]);
    await eventually(() => expect(handled).toContain(next.id));
    expect(attempts).toBe(3);
    expect(handled.filter((id) => id === flaky.id)).toHaveLength(1);
    expect(handled.indexOf(flaky.id)).toBeLessThan(handled.indexOf(next.id));
    expect((await parkedBy('flaky')).filter((m) => m.value?.toString().includes(flaky.id))).toEqual(
      [],
    );
  });

  it('parks an event whose handler keeps failing after maxAttempts and goes on with the next', async () => {
    const key = randomUUID();
    const [poison, next] = [verified(key), verified(key)];
    let attempts = 0;
    const handled: string[] = [];
    await consume(
      'poison',
      {
        UserVerified: async (event) => {
          if (event.id !== poison.id) return void handled.push(event.id);
          attempts += 1;
          throw new Error('projection store down');
        },
      },
      { maxAttempts: 3, retryBaseMs: 10 },
    );
    const sent = await produce(key, [json(poison), json(next)]);
    await eventually(() => expect(handled).toContain(next.id));
    expect(attempts).toBe(3);
    const parked = (await parkedBy('poison')).filter((m) => m.value?.toString() === json(poison));
    expect(parked).toHaveLength(1);
    expect(header(parked[0]!, 'reason')).toBe('handler failed: projection store down');
    expect(header(parked[0]!, 'original-offset')).toBe(sent.offsets[0]);
    expect(parked[0]!.key?.toString()).toBe(key);
  });

  it('skips an unknown event type and a type without a handler, without parking them', async () => {
    const key = randomUUID();
    const unknown = { ...verified(key), type: 'UserTeleported', data: { to: 'mars' } };
    const unhandled = newEvent('UserBanned', {
      aggregateId: key,
      actorId: null,
      data: { userId: key, type: 'hard', reason: null },
    });
    const handledEvent = verified(key);
    const seen: DomainEvent[] = [];
    await consume('skipping', { UserVerified: async (event) => void seen.push(event) });
    await produce(key, [json(unknown), json(unhandled), json(handledEvent)]);
    await eventually(() => expect(seen.map((e) => e.id)).toContain(handledEvent.id));
    expect(seen.every((e) => e.type === 'UserVerified')).toBe(true);
    const parked = (await parkedBy('skipping')).filter((m) => m.key?.toString() === key);
    expect(parked).toEqual([]);
  });

  it('finishes the message in hand on stop, disconnects and commits: the group does not see it again', async () => {
    const key = randomUUID();
    const [first, slow] = [verified(key), verified(key)];
    const seenByA: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let slowStarted = false;
    const a = await consume('stopping', {
      UserVerified: async (event) => {
        if (event.id === slow.id) {
          slowStarted = true;
          await gate;
        }
        seenByA.push(event.id);
      },
    });
    let disconnected = false;
    a.consumer.on(a.consumer.events.DISCONNECT, () => (disconnected = true));
    await produce(key, [json(first), json(slow)]);
    await eventually(() => expect(slowStarted).toBe(true));

    const stopped = a.stop();
    setTimeout(release, 100);
    await stopped;
    expect(seenByA).toContain(first.id);
    expect(seenByA.at(-1)).toBe(slow.id); // the message in hand was finished, and nothing after it
    expect(disconnected).toBe(true);

    const after = verified(key);
    await produce(key, [json(after)]);
    const seenByB: string[] = [];
    await consume('stopping', { UserVerified: async (event) => void seenByB.push(event.id) });
    await eventually(() => expect(seenByB).toContain(after.id));
    // Nothing A handled comes again ("after" sits behind both on the same partition). B may still
    // get older messages of other partitions that A had not reached when it stopped.
    expect(seenByB).not.toContain(first.id);
    expect(seenByB).not.toContain(slow.id);
    expect(seenByB.filter((id) => seenByA.includes(id))).toEqual([]);
  });
});
