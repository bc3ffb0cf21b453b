import { randomUUID } from 'node:crypto';
import type { Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotentProducer } from '../src/kafka.ts';
import {
  enqueueEvents,
  newEvent,
  publishAfterCommit,
  startOutboxRelay,
  type OutboxRelay,
} from '../src/outbox.ts';
import type { DomainEvent } from '../src/schemas.ts';
import { TOPICS } from '../src/topics.ts';
import {
  createTestDatabase,
  createTopics,
  eventually,
  header,
  idOf,
  jsonOf,
  kafka,
  messageCount,
  readTopic,
  silentLogger,
  type TestDatabase,
} from './support.ts';

let db: TestDatabase;
let topics: { prefix: string; remove(): Promise<void> };
const producers: Producer[] = [];
const relays: OutboxRelay[] = [];

beforeAll(async () => {
  [db, topics] = await Promise.all([createTestDatabase(), createTopics()]);
});

afterAll(async () => {
  await Promise.all(relays.map((relay) => relay.stop()));
  await Promise.all(producers.map((producer) => producer.disconnect()));
  await Promise.all([db?.drop(), topics?.remove()]);
});

async function connectedProducer(): Promise<Producer> {
  const producer = createIdempotentProducer(kafka);
  await producer.connect();
  producers.push(producer);
  return producer;
}

/** A relay that only publishes at start and when flushed (the poll is longer than any test). */
async function relay(pollIntervalMs = 600_000): Promise<OutboxRelay> {
  const started = startOutboxRelay({
    transaction: db.transaction,
    producer: await connectedProducer(),
    topicPrefix: topics.prefix,
    logger: silentLogger,
    pollIntervalMs,
  });
  relays.push(started);
  return started;
}

const verified = (userId: string) =>
  newEvent('UserVerified', { aggregateId: userId, actorId: null, data: { userId } });
const banned = (userId: string) =>
  newEvent('UserBanned', {
    aggregateId: userId,
    actorId: randomUUID(),
    data: { userId, type: 'soft', reason: 'spam' },
  });
const unbanned = (userId: string) =>
  newEvent('UserUnbanned', { aggregateId: userId, actorId: null, data: { userId } });

const unpublished = async () =>
  Number(
    (
      await db.sql.$queryRawUnsafe<{ n: string }[]>(
        'SELECT count(*) AS n FROM outbox_events WHERE published_at IS NULL',
      )
    )[0]?.n,
  );

describe('outbox relay', () => {
  it('publishes what one transaction enqueued, keyed and in order per aggregate; never a rolled-back event', async () => {
    const [alice, bob] = [randomUUID(), randomUUID()];
    const wallet = newEvent('WalletCreated', {
      aggregateId: alice,
      actorId: null,
      data: { walletId: randomUUID(), userId: alice },
    });
    const events: DomainEvent[] = [
      verified(alice),
      verified(bob),
      banned(alice),
      banned(bob),
      unbanned(alice),
      wallet,
    ];
    await db.transaction((tx) => enqueueEvents(tx, events));
    const ghost = verified(alice);
    await expect(
      db.transaction(async (tx) => {
        await enqueueEvents(tx, [ghost]);
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');

    const r = await relay();
    await r.flush();
    expect(await unpublished()).toBe(0);
    const rows = await db.sql.$queryRawUnsafe<{ id: string; published_at: Date | null }[]>(
      'SELECT id::text, published_at FROM outbox_events',
    );
    expect(rows.map((row) => row.id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(rows.every((row) => row.published_at instanceof Date)).toBe(true);

    const identity = await readTopic(topics.prefix, TOPICS.identity);
    expect(identity.map((m) => idOf(m))).not.toContain(ghost.id);
    expect(identity).toHaveLength(5);
    for (const message of identity) {
      const event = events.find((e) => e.id === idOf(message))!;
      expect(jsonOf(message)).toEqual(event);
      expect(message.key?.toString()).toBe(event.aggregateId);
      expect(header(message, 'event-type')).toBe(event.type);
    }
    // Per aggregate: one partition, and the enqueue order.
    for (const user of [alice, bob]) {
      const mine = identity.filter((m) => m.key?.toString() === user);
      expect(new Set(mine.map((m) => m.partition)).size).toBe(1);
      const expected = events
        .filter((e) => e.aggregateId === user && e.type !== 'WalletCreated')
        .map((e) => e.id);
      expect(mine.map((m) => idOf(m))).toEqual(expected);
    }
    const walletTopic = await readTopic(topics.prefix, TOPICS.wallet);
    expect(walletTopic.map((m) => jsonOf(m))).toEqual([wallet]);
    expect(header(walletTopic[0]!, 'event-type')).toBe('WalletCreated');

    // Nothing is left: a second flush publishes nothing and the topic does not grow.
    expect(await r.flush()).toBe(0);
    expect(await messageCount(topics.prefix, TOPICS.identity)).toBe(5);
  });

  it('publishes in enqueue order across a power of ten: seq is ordered as a number, not as text', async () => {
    // The next values straddle a power of ten (8, 9 | 10, 11 or 98, 99 | 100, 101). Ordered as
    // the text the relay selects, 10 came before 9: an aggregate's later event went out first.
    await db.sql.$queryRawUnsafe(
      `SELECT setval('outbox_events_seq_seq', (10 ^ ceil(log(last_value + 2)))::bigint - 2)
         FROM outbox_events_seq_seq`,
    );
    const user = randomUUID();
    const events = [verified(user), banned(user), unbanned(user), banned(user)];
    await db.transaction((tx) => enqueueEvents(tx, events));
    const r = await relay();
    await r.flush();
    const mine = (await readTopic(topics.prefix, TOPICS.identity)).filter(
      (message) => message.key?.toString() === user,
    );
    expect(mine.map((message) => idOf(message))).toEqual(events.map((event) => event.id));
  });

  it('publishes events committed later on the next flush, and reports how many', async () => {
    const r = await relay();
    await r.flush();
    const before = await messageCount(topics.prefix, TOPICS.identity);
    const user = randomUUID();
    await db.transaction((tx) => enqueueEvents(tx, [verified(user), banned(user), unbanned(user)]));
    expect(await r.flush()).toBe(3);
    expect(await r.flush()).toBe(0);
    expect(await messageCount(topics.prefix, TOPICS.identity)).toBe(before + 3);
  });

  it('publishes each event exactly once with two relays polling the same table', async () => {
    const before = await messageCount(topics.prefix, TOPICS.identity);
    const pair = await Promise.all([relay(5), relay(5)]);
    const users = Array.from({ length: 6 }, () => randomUUID());
    const enqueued: DomainEvent[] = [];
    // Commits spread over time while both relays poll.
    for (let round = 0; round < 10; round += 1) {
      const batch = users.map((user) => (round % 2 ? banned(user) : verified(user)));
      enqueued.push(...batch);
      await db.transaction((tx) => enqueueEvents(tx, batch));
      await new Promise((resolve) => setTimeout(resolve, 7));
    }
    await eventually(async () => expect(await unpublished()).toBe(0));
    expect(await messageCount(topics.prefix, TOPICS.identity)).toBe(before + enqueued.length);

    const read = await readTopic(topics.prefix, TOPICS.identity);
    const ids = read.map((m) => idOf(m));
    const wanted = new Set(enqueued.map((e) => e.id));
    const mine = ids.filter((id) => wanted.has(id));
    expect(mine).toHaveLength(enqueued.length);
    expect(new Set(mine).size).toBe(enqueued.length);
    // And the order per aggregate held across both relays.
    for (const user of users) {
      const got = read.filter((m) => m.key?.toString() === user).map((m) => idOf(m));
      expect(got).toEqual(enqueued.filter((e) => e.aggregateId === user).map((e) => e.id));
    }
    await Promise.all(pair.map((r) => r.stop()));
  });

  it('deletes published rows older than the retention and keeps recent ones', async () => {
    const [old, recent] = [verified(randomUUID()), verified(randomUUID())];
    await db.sql.$executeRawUnsafe(
      `INSERT INTO outbox_events (id, topic, key, type, payload, published_at)
       VALUES ($1::uuid, $2, $3, $4, $5::jsonb, now() - interval '2 days')`,
      old.id,
      TOPICS.identity,
      old.aggregateId,
      old.type,
      JSON.stringify(old),
    );
    await db.transaction((tx) => enqueueEvents(tx, [recent]));
    const r = startOutboxRelay({
      transaction: db.transaction,
      producer: await connectedProducer(),
      topicPrefix: topics.prefix,
      logger: silentLogger,
      pollIntervalMs: 600_000,
      retentionMs: 24 * 60 * 60 * 1000,
    });
    relays.push(r);
    const ids = async () =>
      (await db.sql.$queryRawUnsafe<{ id: string }[]>('SELECT id::text FROM outbox_events')).map(
        (row) => row.id,
      );
    await eventually(async () => expect(await ids()).not.toContain(old.id));
    expect(await ids()).toContain(recent.id);
  });
});

// Last in the file: a commit through publishAfterCommit wakes every relay of the process.
describe('outbox relay woken by a commit', () => {
  it('publishes what a transaction committed through publishAfterCommit at once, without waiting for its poll', async () => {
    const r = await relay(); // polls every ten minutes
    await r.flush();
    const user = randomUUID();
    const event = verified(user);
    await publishAfterCommit(db.transaction)((tx) => enqueueEvents(tx, [event]));
    await eventually(async () => expect(await unpublished()).toBe(0), 10_000);
    const read = await readTopic(topics.prefix, TOPICS.identity);
    expect(read.filter((m) => m.key?.toString() === user).map((m) => idOf(m))).toEqual([event.id]);
  });

  it('wakes nothing for a transaction that rolled back; its events are never published', async () => {
    const r = await relay();
    await r.flush();
    const user = randomUUID();
    await expect(
      publishAfterCommit(db.transaction)(async (tx) => {
        await enqueueEvents(tx, [verified(user)]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await r.flush()).toBe(0);
    const read = await readTopic(topics.prefix, TOPICS.identity);
    expect(read.filter((m) => m.key?.toString() === user)).toEqual([]);
  });
});
