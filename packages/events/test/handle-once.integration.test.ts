import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleOnce } from '../src/consumer.ts';
import type { SqlExecutor } from '../src/sql.ts';
import { createTestDatabase, type TestDatabase } from './support.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

/** A fresh counter; the effect under test increments it in the handler's transaction. */
async function counter(): Promise<{
  increment: (tx: SqlExecutor) => Promise<void>;
  value: () => Promise<number>;
}> {
  const name = randomUUID();
  await db.sql.$executeRawUnsafe('INSERT INTO counters (name, value) VALUES ($1, 0)', name);
  return {
    increment: async (tx) => {
      await tx.$executeRawUnsafe('UPDATE counters SET value = value + 1 WHERE name = $1', name);
    },
    value: async () =>
      (
        await db.sql.$queryRawUnsafe<{ value: number }[]>(
          'SELECT value FROM counters WHERE name = $1',
          name,
        )
      )[0]!.value,
  };
}

const processed = async (consumer: string, eventId: string) =>
  (
    await db.sql.$queryRawUnsafe<unknown[]>(
      'SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2::uuid',
      consumer,
      eventId,
    )
  ).length;

describe('handleOnce', () => {
  it('runs the effect once for a duplicate event delivered again', async () => {
    const { increment, value } = await counter();
    const eventId = randomUUID();
    expect(await handleOnce(db.transaction, 'wallet', eventId, increment)).toBe(true);
    expect(await handleOnce(db.transaction, 'wallet', eventId, increment)).toBe(false);
    expect(await handleOnce(db.transaction, 'wallet', eventId, increment)).toBe(false);
    expect(await value()).toBe(1);
    expect(await processed('wallet', eventId)).toBe(1);
  });

  it('keeps consumers apart: another consumer handles the same event id too', async () => {
    const { increment, value } = await counter();
    const eventId = randomUUID();
    expect(await handleOnce(db.transaction, 'notification', eventId, increment)).toBe(true);
    expect(await handleOnce(db.transaction, 'challenge', eventId, increment)).toBe(true);
    expect(await value()).toBe(2);
  });

  it('runs the effect once when 5 deliveries race', async () => {
    const { increment, value } = await counter();
    const eventId = randomUUID();
    // A slow effect keeps the winner's transaction open while the others try to insert.
    const slowIncrement = async (tx: SqlExecutor) => {
      await tx.$queryRawUnsafe('SELECT pg_sleep(0.1)');
      await increment(tx);
    };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => handleOnce(db.transaction, 'wallet', eventId, slowIncrement)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await value()).toBe(1);
  });

  it('rolls back the processed-event row with a failing effect, so a later delivery runs it', async () => {
    const { increment, value } = await counter();
    const eventId = randomUUID();
    const failing = async (tx: SqlExecutor) => {
      await increment(tx);
      throw new Error('wallet database hiccup');
    };
    await expect(handleOnce(db.transaction, 'wallet', eventId, failing)).rejects.toThrow(
      'wallet database hiccup',
    );
    expect(await processed('wallet', eventId)).toBe(0);
    expect(await value()).toBe(0);

    expect(await handleOnce(db.transaction, 'wallet', eventId, increment)).toBe(true);
    expect(await handleOnce(db.transaction, 'wallet', eventId, increment)).toBe(false);
    expect(await value()).toBe(1);
  });

  it('lets a racing delivery take over when the one holding the event fails', async () => {
    const { increment, value } = await counter();
    const eventId = randomUUID();
    let attempts = 0;
    const failsFirst = async (tx: SqlExecutor) => {
      attempts += 1;
      const first = attempts === 1;
      await tx.$queryRawUnsafe('SELECT pg_sleep(0.1)');
      await increment(tx);
      if (first) throw new Error('first attempt fails');
    };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 3 }, () => handleOnce(db.transaction, 'wallet', eventId, failsFirst)),
    );
    const statuses = outcomes
      .map((o) => (o.status === 'rejected' ? 'failed' : String(o.value)))
      .sort();
    expect(statuses).toEqual(['failed', 'false', 'true']);
    expect(await value()).toBe(1);
    expect(await processed('wallet', eventId)).toBe(1);
  });
});
