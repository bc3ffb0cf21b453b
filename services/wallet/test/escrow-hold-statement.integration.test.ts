import { randomUUID } from 'node:crypto';
import { deleteTopics, uniqueTopicPrefix, type TestService } from '@challenge/testing';
import { PrismaPg } from '@prisma/adapter-pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WalletApp } from '../src/app.ts';
import { PrismaClient } from '../src/data/generated/client.ts';
import { holdReward } from '../src/domain/escrow.ts';
import { balances, expectLedgerBalanced, startWallet, userWithBalance } from './support.ts';

/**
 * ADR 0098: a new escrow hold is one statement (wallet_hold_new_escrow) under the challenge's
 * money lock and the ledger's row locks; everything else falls back to the transaction of steps.
 */
describe('escrow hold in one statement', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: TestService<WalletApp>;
  /** The wallet's database through an adapter that counts what is sent to PostgreSQL. */
  let counted: PrismaClient;
  let roundTrips = 0;

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix);
    const count = <O extends object>(target: O): O =>
      new Proxy(target, {
        get(object, property) {
          const value: unknown = Reflect.get(object, property, object);
          if (typeof value !== 'function') return value;
          const method = value as (...args: unknown[]) => unknown;
          if (['queryRaw', 'executeRaw', 'commit', 'rollback'].includes(String(property)))
            return (...args: unknown[]) => {
              roundTrips += 1;
              return method.apply(object, args);
            };
          if (property === 'startTransaction')
            return async (...args: unknown[]) => {
              roundTrips += 1; // BEGIN
              return count((await method.apply(object, args)) as object);
            };
          if (property === 'connect')
            return async (...args: unknown[]) =>
              count((await method.apply(object, args)) as object);
          return method.bind(object);
        },
      });
    counted = new PrismaClient({
      adapter: count(new PrismaPg({ connectionString: wallet.database.url })),
    });
  });
  afterAll(async () => {
    await counted?.$disconnect();
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });

  const request = (ownerId: string, amountCents: number, challengeId = randomUUID()) => ({
    challengeId,
    ownerId,
    amountCents,
    slug: `dare-${challengeId.slice(0, 8)}`,
    challengeName: 'Eat a lemon',
  });

  it('holds a new reward in one round trip, with its WalletBalanceChanged figures', async () => {
    const owner = await userWithBalance(wallet.app, 1_000);
    const hold = request(owner, 300);
    roundTrips = 0;
    expect(await holdReward(counted, hold)).toEqual({
      challengeId: hold.challengeId,
      ownerId: owner,
      amountCents: 300,
      status: 'held',
    });
    expect(roundTrips).toBe(1);
    expect(await balances(wallet.app, owner)).toEqual({ available: 700, frozen: 300 });
    const [event] = await wallet.app.db.outboxEvent.findMany({
      where: { key: owner, type: 'WalletBalanceChanged' },
      orderBy: { seq: 'desc' },
      take: 1,
    });
    const walletRow = await wallet.app.db.wallet.findUniqueOrThrow({ where: { userId: owner } });
    expect((event!.payload as { data: object }).data).toEqual({
      userId: owner,
      availableCents: 700,
      frozenCents: 300,
      openPayoutCents: 0,
      version: Number(walletRow.version),
    });
    await expectLedgerBalanced(wallet.app.db);
  });

  it('never overdraws one owner when two new holds race', async () => {
    const owner = await userWithBalance(wallet.app, 500);
    const results = await Promise.allSettled([
      holdReward(wallet.app.db, request(owner, 500)),
      holdReward(wallet.app.db, request(owner, 500)),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({
      identifier: 'insufficient_funds',
    });
    expect(await balances(wallet.app, owner)).toEqual({ available: 0, frozen: 500 });
    expect(await wallet.app.db.escrowHold.count({ where: { ownerId: owner } })).toBe(1);
    await expectLedgerBalanced(wallet.app.db);
  });

  it('answers racing replays of one hold the same, holding the money once', async () => {
    const owner = await userWithBalance(wallet.app, 1_000);
    const hold = request(owner, 400);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => holdReward(wallet.app.db, hold)),
    );
    for (const answer of answers)
      expect(answer).toEqual({
        challengeId: hold.challengeId,
        ownerId: owner,
        amountCents: 400,
        status: 'held',
      });
    expect(await balances(wallet.app, owner)).toEqual({ available: 600, frozen: 400 });
    expect(
      await wallet.app.db.ledgerTransfer.count({ where: { challengeId: hold.challengeId } }),
    ).toBe(1);
    await expectLedgerBalanced(wallet.app.db);
  });
});
