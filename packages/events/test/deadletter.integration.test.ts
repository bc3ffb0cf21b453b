import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, repoRoot } from '../../../scripts/lib/stack-config.mjs';
import {
  UnhandleableEventError,
  handleOnce,
  startEventConsumer,
  type EventConsumer,
} from '../src/consumer.ts';
import { createIdempotentProducer, createKafka } from '../src/kafka.ts';
import { newEvent } from '../src/outbox.ts';
import { TOPICS } from '../src/topics.ts';
import {
  createTestDatabase,
  createTopics,
  eventually,
  header,
  readTopic,
  silentLogger,
  stack,
  type TestDatabase,
} from './support.ts';

const kafka = createKafka({
  clientId: 'events-deadletter-tests',
  brokers: stack.kafkaBrokers,
  logger: silentLogger,
});
let topics: { prefix: string; remove(): Promise<void> };
let producer: Producer;
let db: TestDatabase;
const running: EventConsumer[] = [];

beforeAll(async () => {
  [topics, db] = await Promise.all([createTopics(), createTestDatabase()]);
  producer = createIdempotentProducer(kafka);
  await producer.connect();
});

afterAll(async () => {
  await Promise.all(running.map((consumer) => consumer.stop()));
  await producer?.disconnect();
  await topics?.remove();
  await db?.drop();
});

/** `npm run deadletter -- ...args` against this file's topics; resolves with its output. */
async function deadletter(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/deadletter.mjs', ...args],
    {
      cwd: repoRoot,
      env: childEnv({
        KAFKA_BROKERS: stack.kafkaBrokers.join(','),
        KAFKA_TOPIC_PREFIX: topics.prefix,
      }),
    },
  );
  return stdout;
}

const paid = async (userId: string) =>
  (
    await db.sql.$queryRawUnsafe<{ value: number }[]>(
      'SELECT value FROM counters WHERE name = $1',
      userId,
    )
  )[0]?.value ?? 0;

describe('npm run deadletter', () => {
  it('lists a parked event and replays it to its topic: handled once, and a second replay changes nothing', async () => {
    const userId = randomUUID();
    const event = newEvent('UserVerified', {
      aggregateId: userId,
      actorId: null,
      data: { userId },
    });
    let fixed = false;
    const calls: boolean[] = [];
    running.push(
      await startEventConsumer({
        kafka,
        producer,
        groupId: 'wallet',
        topics: [TOPICS.identity],
        topicPrefix: topics.prefix,
        logger: silentLogger,
        retryBaseMs: 10,
        handlers: {
          UserVerified: async (e) => {
            // A bug of ours refuses the event until it is fixed; the effect pays once.
            if (!fixed) throw new UnhandleableEventError('the user is unknown');
            calls.push(
              await handleOnce(db.transaction, 'wallet', e.id, async (tx) => {
                await tx.$executeRawUnsafe(
                  `INSERT INTO counters (name, value) VALUES ($1, 1)
                     ON CONFLICT (name) DO UPDATE SET value = counters.value + 1`,
                  e.data.userId,
                );
              }),
            );
          },
        },
      }),
    );
    const original = { 'event-type': 'UserVerified', 'event-id': event.id, 'trace-id': 't-1' };
    await producer.send({
      topic: `${topics.prefix}${TOPICS.identity}`,
      acks: -1,
      messages: [{ key: userId, value: JSON.stringify(event), headers: original }],
    });
    // And a malformed message, which --all leaves alone: it can never become readable.
    await producer.send({
      topic: `${topics.prefix}${TOPICS.identity}`,
      acks: -1,
      messages: [{ key: userId, value: 'not json' }],
    });

    const listed = await eventually(async () => {
      const out = await deadletter('list');
      expect(out).toContain('2 dead letter(s)');
      return out;
    });
    const line = listed.split('\n').find((l) => l.includes(event.id))!;
    expect(line).toMatch(
      new RegExp(
        `^(\\d+:\\d+)  ${topics.prefix.replace('.', '\\.')}identity\\.v1\\[\\d+\\]@\\d+  group=${topics.prefix.replace('.', '\\.')}wallet  kind=unhandleable  type=UserVerified  id=${event.id}  parked=\\S+  reason="handler refused: the user is unknown"$`,
      ),
    );
    expect(listed).toMatch(/kind=malformed {2}type=- {2}id=-/);
    expect(await paid(userId)).toBe(0);

    fixed = true;
    const location = line.split('  ')[0]!;
    const replayed = await deadletter('replay', '--offset', location);
    expect(replayed).toContain('1 dead letter(s) replayed');
    await eventually(async () => expect(await paid(userId)).toBe(1));
    expect(calls).toEqual([true]);

    // The replayed message carries its original headers again, and where it came from.
    const onTopic = (await readTopic(topics.prefix, TOPICS.identity)).filter((m) =>
      m.value?.toString().includes(event.id),
    );
    expect(onTopic).toHaveLength(2);
    const again = onTopic[1]!;
    expect(header(again, 'event-id')).toBe(event.id);
    expect(header(again, 'trace-id')).toBe('t-1');
    expect(header(again, 'replayed-from')).toBe(location);
    expect(header(again, 'reason')).toBeUndefined();
    expect(again.partition).toBe(onTopic[0]!.partition);

    // --all replays the replayable letters only (not the malformed one), of the group asked.
    const all = await deadletter('replay', '--all', '--group', 'wallet');
    expect(all).toContain('1 dead letter(s) replayed');
    await eventually(() => expect(calls).toEqual([true, false]));
    expect(await paid(userId)).toBe(1);
    const letters = await readTopic(topics.prefix, TOPICS.deadLetter);
    expect(letters).toHaveLength(2);
  });

  it('refuses a replay without a selection, and a variable that makes no sense', async () => {
    await expect(deadletter('replay')).rejects.toMatchObject({ code: 2 });
    await expect(
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/deadletter.mjs', 'list'], {
        cwd: repoRoot,
        env: childEnv({ KAFKA_BROKERS: 'x:1', KAFKA_SASL_MECHANISM: 'scram-sha-256' }),
      }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        'Invalid environment variable KAFKA_SASL_USERNAME: is required when KAFKA_SASL_MECHANISM is set',
      ),
    });
  });
});
