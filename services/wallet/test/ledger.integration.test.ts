import { randomUUID } from 'node:crypto';
import { AppError } from '@challenge/kit';
import { createTestDatabase, type TestDatabase } from '@challenge/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, transactionRunner, type Database } from '../src/data/db.ts';
import { ledgerTotals } from '../src/data/ledger.ts';
import { insertWalletOnce } from '../src/data/wallets.ts';
import { transfer, type TransferRequest } from '../src/domain/ledger.ts';
import { expectLedgerBalanced } from './support.ts';

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase('wallet');
  db = createDatabase(database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

async function newUsers(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  for (const id of ids) await transactionRunner(db)((tx) => insertWalletOnce(tx, id));
  return ids;
}

const available = (user: string) => ({ user, kind: 'user_available' as const });
const frozen = (user: string) => ({ user, kind: 'user_frozen' as const });
const topUp = (user: string, cents: number, key: string = randomUUID()): TransferRequest => ({
  idempotencyKey: `top-up:${key}`,
  kind: 'top_up',
  from: { platform: 'provider_clearing' },
  to: available(user),
  amountCents: BigInt(cents),
});

/** Every account's balance equals its credits minus its debits; the whole ledger sums to zero. */
async function assertLedgerConsistent() {
  await expectLedgerBalanced(db);
  const totals = await ledgerTotals(db);
  expect(totals.totalBalance).toBe(0n);
  const [sums] = await db.$queryRaw<{ topups: bigint }[]>`
    SELECT COALESCE(SUM(amount_cents), 0)::bigint AS topups FROM ledger_transfers WHERE kind = 'top_up'`;
  expect(totals.totalMoneyTopUps).toBe(sums!.topups);
}

describe('the double-entry ledger', () => {
  it('moves money once per idempotency key, even when the request races itself', async () => {
    const [user] = await newUsers(1);
    const request = topUp(user!, 1250, `same-key-${user}`);
    const results = await Promise.all(Array.from({ length: 5 }, () => transfer(db, request)));
    expect(results.filter((result) => result.applied)).toHaveLength(1);
    const balance = await db.ledgerAccount.findFirstOrThrow({
      where: { userId: user, kind: 'user_available' },
    });
    expect(balance.balance).toBe(1250n);
    await assertLedgerConsistent();
  });

  it('refuses to overspend with insufficient_funds and moves nothing', async () => {
    const [user] = await newUsers(1);
    await transfer(db, topUp(user!, 500));
    const hold = {
      idempotencyKey: `hold:${randomUUID()}`,
      kind: 'escrow_hold' as const,
      from: available(user!),
      to: frozen(user!),
      amountCents: 501n,
    };
    await expect(transfer(db, hold)).rejects.toEqual(new AppError('insufficient_funds'));
    expect(await db.ledgerTransfer.count({ where: { idempotencyKey: hold.idempotencyKey } })).toBe(
      0,
    );
    await assertLedgerConsistent();
  });

  it('lets exactly as many concurrent holds through as the balance covers', async () => {
    const [user] = await newUsers(1);
    await transfer(db, topUp(user!, 1000));
    const holds = Array.from({ length: 20 }, () =>
      transfer(db, {
        idempotencyKey: randomUUID(),
        kind: 'escrow_hold',
        from: available(user!),
        to: frozen(user!),
        amountCents: 100n,
      }),
    );
    const settled = await Promise.allSettled(holds);
    expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
    for (const result of settled.filter((result) => result.status === 'rejected')) {
      expect((result as PromiseRejectedResult).reason).toEqual(new AppError('insufficient_funds'));
    }
    const accounts = await db.ledgerAccount.findMany({
      where: { userId: user },
      orderBy: { kind: 'asc' },
    });
    expect(accounts.map((account) => [account.kind, account.balance])).toEqual([
      ['user_available', 0n],
      ['user_frozen', 1000n],
    ]);
    await assertLedgerConsistent();
  });

  it('lets the database itself refuse a negative user balance', async () => {
    const [user] = await newUsers(1);
    await expect(
      db.$executeRaw`UPDATE ledger_accounts SET balance = -1 WHERE user_id = ${user}::uuid AND kind = 'user_available'`,
    ).rejects.toThrow(/ledger_accounts_user_not_negative/);
  });

  it('keeps every invariant under random concurrent top-ups, holds, captures, releases and payouts', async () => {
    const operation = fc.record({
      type: fc.constantFrom('topUp', 'hold', 'capture', 'release', 'payout'),
      from: fc.nat(2),
      to: fc.nat(2),
      cents: fc.integer({ min: 1, max: 5_000 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 24 }), async (operations) => {
        const users = await newUsers(3);
        const requests: TransferRequest[] = operations.map((op) => {
          const [a, b] = [users[op.from]!, users[op.to]!];
          const key = randomUUID();
          const amountCents = BigInt(op.cents);
          switch (op.type) {
            case 'topUp':
              return topUp(a, op.cents, key);
            case 'hold':
              return {
                idempotencyKey: key,
                kind: 'escrow_hold',
                from: available(a),
                to: frozen(a),
                amountCents,
              };
            case 'capture':
              return {
                idempotencyKey: key,
                kind: 'escrow_capture',
                from: frozen(a),
                to: available(b),
                amountCents,
              };
            case 'release':
              return {
                idempotencyKey: key,
                kind: 'escrow_release',
                from: frozen(a),
                to: available(a),
                amountCents,
              };
            default:
              return {
                idempotencyKey: key,
                kind: 'payout_complete',
                from: available(a),
                to: { platform: 'payout_clearing' },
                amountCents,
              };
          }
        });
        // Eight at a time: real contention on the same three wallets.
        for (let i = 0; i < requests.length; i += 8) {
          const settled = await Promise.allSettled(
            requests.slice(i, i + 8).map((request) => transfer(db, request)),
          );
          for (const result of settled) {
            if (result.status === 'rejected')
              expect(result.reason).toEqual(new AppError('insufficient_funds'));
          }
        }
        await assertLedgerConsistent();
      }),
      { numRuns: 15 },
    );
  });
});
