import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent } from '@challenge/events';
import {
  deleteTopics,
  eventually,
  produceRaw,
  readTopic,
  uniqueTopicPrefix,
  waitForCaughtUp,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestPayout, updatePaymentProfile } from '../src/domain/payouts.ts';
import { seedWallet } from '../src/seed.ts';
import { startWallet } from './support.ts';
import { walletCount } from '../src/seed.ts';

const registered = (userId = randomUUID()) =>
  newEvent('UserRegistered', {
    aggregateId: userId,
    actorId: userId,
    data: {
      userId,
      username: `u${userId.slice(0, 8)}`,
      email: `${userId}@example.test`,
      locale: 'en',
    },
  });

describe('wallet consumes UserRegistered', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: Awaited<ReturnType<typeof startWallet>>;

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix);
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });

  it('opens one wallet per user, however often the event arrives', async () => {
    const event = registered();
    const message = { key: event.aggregateId, value: JSON.stringify(event) };
    await produceRaw(topicPrefix, TOPICS.identity, [message, message, message]);
    await waitForCaughtUp(topicPrefix, 'wallet', TOPICS.identity);
    expect(await walletCount(wallet.app.db, event.data.userId)).toBe(1);
  });

  it('parks a malformed message on the dead-letter topic and still handles the next event', async () => {
    const next = registered();
    // Same key, so the same partition: the good event waits behind the bad messages.
    await produceRaw(topicPrefix, TOPICS.identity, [
      { key: next.aggregateId, value: '{not json' },
      {
        key: next.aggregateId,
        value: JSON.stringify({ ...next, id: randomUUID(), data: { userId: 'nope' } }),
      },
      { key: next.aggregateId, value: JSON.stringify(next) },
    ]);

    await eventually(async () =>
      expect(await walletCount(wallet.app.db, next.data.userId)).toBe(1),
    );
    const parked = await readTopic(
      topicPrefix,
      TOPICS.deadLetter,
      (messages) => messages.length >= 2,
    );
    expect(parked.map((message) => message.value?.toString())).toEqual([
      '{not json',
      expect.stringContaining('"userId":"nope"'),
    ]);
    expect(parked[0]?.headers?.['original-topic']?.toString()).toBe(
      `${topicPrefix}${TOPICS.identity}`,
    );
    expect(parked[0]?.headers?.reason?.toString()).toMatch(/^malformed: not JSON/);
    expect(parked[1]?.headers?.reason?.toString()).toMatch(/bad UserRegistered data/);
  });

  it('announces each new wallet with WalletCreated through its outbox', async () => {
    const event = registered();
    await produceRaw(topicPrefix, TOPICS.identity, [
      { key: event.aggregateId, value: JSON.stringify(event) },
    ]);
    const messages = await readTopic(topicPrefix, TOPICS.wallet, (all) =>
      all.some((message) => message.value?.toString().includes(event.data.userId)),
    );
    const created = messages
      .map((message) => JSON.parse(message.value!.toString()))
      .filter((published) => published.data.userId === event.data.userId);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ type: 'WalletCreated', actorId: event.actorId });
  });

  it('opens no second wallet and announces none when money opened it before the registration', async () => {
    const event = registered();
    const { userId } = event.data;
    // Opened (and announced) first, as money paid to a user wallet has not heard of does.
    await seedWallet(wallet.app.db, userId, 0);
    const message = { key: userId, value: JSON.stringify(event) };
    await produceRaw(topicPrefix, TOPICS.identity, [message]);
    await waitForCaughtUp(topicPrefix, 'wallet', TOPICS.identity);
    expect(await walletCount(wallet.app.db, userId)).toBe(1);
    expect(await wallet.app.db.ledgerAccount.count({ where: { userId } })).toBe(2);
    const announced = await wallet.app.db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM outbox_events
       WHERE type = 'WalletCreated' AND payload->'data'->>'userId' = ${userId}`;
    expect(Number(announced[0]!.n)).toBe(1);
  });

  it('forgets the bank details of an erased account but keeps its payout records', async () => {
    const userId = randomUUID();
    await seedWallet(wallet.app.db, userId, 5_000);
    await updatePaymentProfile(
      { db: wallet.app.db },
      { id: userId },
      {
        paymentName: 'Gone Soon',
        paymentAccountNumber: 'NL91ABNA0417164300',
        paymentBic: 'ABNANL2A',
        paymentAddress: 'Street 1',
        paymentPostalCode: '1000 AA',
        paymentCity: 'Amsterdam',
        paymentCountryCode: 'NL',
        phoneNumber: '+31612345678',
      },
    );
    await requestPayout(wallet.app.db, wallet.config.limits, userId, { amount: 5_000 });
    const deleted = newEvent('UserDeleted', {
      aggregateId: userId,
      actorId: null,
      data: { userId },
    });
    const message = { key: userId, value: JSON.stringify(deleted) };
    await produceRaw(topicPrefix, TOPICS.identity, [message, message]);
    await waitForCaughtUp(topicPrefix, 'wallet', TOPICS.identity);
    expect(await wallet.app.db.paymentProfile.count({ where: { userId } })).toBe(0);
    expect(await wallet.app.db.payoutRequest.count({ where: { userId } })).toBe(1);
  });
});
