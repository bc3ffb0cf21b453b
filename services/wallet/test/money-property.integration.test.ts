import { randomUUID } from 'node:crypto';
import { newEvent } from '@challenge/events';
import { AppError } from '@challenge/kit';
import { createTestDatabase, testWalletConfig, type TestDatabase } from '@challenge/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, transactionRunner, type Database } from '../src/data/db.ts';
import { insertWalletOnce } from '../src/data/wallets.ts';
import {
  holdReward,
  onChallengeEvent,
  reconcileEscrow,
  releaseUnusedHold,
  resolveStrayHold,
} from '../src/domain/escrow.ts';
import { moneyTotals } from '../src/domain/history.ts';
import { transfer } from '../src/domain/ledger.ts';
import {
  cancelPayout,
  completePayout,
  exportPayoutRequests,
  requestPayout,
  updatePaymentProfile,
} from '../src/domain/payouts.ts';
import { expectLedgerBalanced } from './support.ts';

/**
 * The whole money side through its domain operations, at random and concurrently, each
 * operation also repeated (a duplicate request or a redelivered event): the invariants hold
 * whatever the interleaving.
 */
let database: TestDatabase;
let db: Database;
const limits = {
  ...testWalletConfig('').limits,
  monthlyWithdrawalLimitCents: 10_000_000,
  minimumPayoutCents: 1,
};
const silent = { warn: () => undefined, error: () => undefined };
const debtor = testWalletConfig('').sepaDebtor;

beforeAll(async () => {
  database = await createTestDatabase('wallet');
  db = createDatabase(database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

function challengeEvent(
  type: 'ChallengeCreated' | 'ChallengeCompleted' | 'ChallengeCancelled',
  hold: { challengeId: string; ownerId: string; cents: number },
  challengedUserId: string,
) {
  const data = {
    challengeId: hold.challengeId,
    slug: `c-${hold.challengeId}`,
    challengeName: 'Random',
    rewardCents: hold.cents,
    ownerId: hold.ownerId,
    challengedUserId,
    challengedEmail: null,
    visibility: 'public',
    expiresAt: '2030-01-01T00:00:00.000Z',
    judgedByReferee: false,
  };
  // One data object fits the three types: each schema keeps the fields it knows.
  return newEvent(type, {
    aggregateId: hold.challengeId,
    actorId: null,
    data,
  } as never) as Parameters<typeof onChallengeEvent>[1];
}

const EXPECTED_REFUSALS = [
  'insufficient_funds',
  'payout_request_no_longer_open',
  // Completing a payout that is not in a SEPA file yet; exporting when nothing is open.
  'invalid_status_change',
  'not_found',
];

describe('money invariants under random concurrent operations', () => {
  it('never goes negative, sums to zero, and every frozen cent is a held reward or an open payout', async () => {
    const operation = fc.record({
      type: fc.constantFrom(
        'topUp',
        'hold',
        'capture',
        'release',
        'payout',
        'exportPayouts',
        'cancelPayout',
        'completePayout',
        'strayHold',
      ),
      user: fc.nat(2),
      other: fc.nat(2),
      pick: fc.nat(50),
      cents: fc.integer({ min: 1, max: 4_000 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 30 }), async (operations) => {
        const users = Array.from({ length: 3 }, () => randomUUID());
        for (const user of users) {
          await transactionRunner(db)((tx) => insertWalletOnce(tx, user));
          await updatePaymentProfile(
            { db },
            { id: user },
            {
              paymentName: 'Test User',
              paymentAccountNumber: 'NL91ABNA0417164300',
              paymentBic: 'ABNANL2A',
              paymentAddress: 'Street 1',
              paymentPostalCode: '1000 AA',
              paymentCity: 'Amsterdam',
              paymentCountryCode: 'NL',
              phoneNumber: '+31612345678',
            },
          );
        }
        const holds: {
          challengeId: string;
          ownerId: string;
          cents: number;
          challenged: string;
        }[] = [];
        const payouts: string[] = [];
        /** The payments of every SEPA file made: a payout may be in one only. */
        const filed: string[] = [];
        let toppedUp = 0;

        const run = async (op: (typeof operations)[number]) => {
          const user = users[op.user]!;
          switch (op.type) {
            case 'topUp': {
              toppedUp += op.cents;
              const key = `top-up:${randomUUID()}`;
              const request = {
                idempotencyKey: key,
                kind: 'top_up' as const,
                from: { platform: 'provider_clearing' as const },
                to: { user, kind: 'user_available' as const },
                amountCents: BigInt(op.cents),
              };
              return Promise.all([transfer(db, request), transfer(db, request)]);
            }
            case 'hold': {
              const hold = {
                challengeId: randomUUID(),
                ownerId: user,
                cents: op.cents,
                challenged: users[op.other]!,
              };
              const request = {
                challengeId: hold.challengeId,
                ownerId: user,
                amountCents: op.cents,
                slug: `c-${hold.challengeId}`,
                challengeName: 'Random',
              };
              // Twice at once, as a retrying caller may: either answer opens the challenge.
              const results = await Promise.allSettled([
                holdReward(db, request),
                holdReward(db, request),
              ]);
              if (!results.some((result) => result.status === 'fulfilled')) {
                expect(
                  await db.escrowHold.count({ where: { challengeId: hold.challengeId } }),
                ).toBe(0);
                throw (results[0] as PromiseRejectedResult).reason;
              }
              for (const result of results) {
                if (result.status === 'rejected') {
                  expect(result.reason).toMatchObject({ identifier: 'insufficient_funds' });
                }
              }
              await onChallengeEvent(
                db,
                challengeEvent('ChallengeCreated', hold, hold.challenged),
                silent,
              );
              holds.push(hold);
              return;
            }
            case 'capture':
            case 'release': {
              const hold = holds[op.pick % Math.max(1, holds.length)];
              if (!hold) return;
              const type = op.type === 'capture' ? 'ChallengeCompleted' : 'ChallengeCancelled';
              const event = challengeEvent(type, hold, hold.challenged);
              // The same event twice, as Kafka may deliver it.
              return Promise.all([
                onChallengeEvent(db, event, silent),
                onChallengeEvent(db, event, silent),
              ]);
            }
            case 'strayHold': {
              // A hold whose challenge never opened: staff (twice) and challenge's release race
              // for it (ADR 72); it goes back exactly once.
              const challengeId = randomUUID();
              await holdReward(db, {
                challengeId,
                ownerId: user,
                amountCents: op.cents,
                slug: `c-${challengeId}`,
                challengeName: 'Random',
              });
              const input = {
                challengeId,
                party: 'owner' as const,
                outcome: 'release' as const,
                reason: 'Never opened',
              };
              const settled = await Promise.allSettled([
                resolveStrayHold(db, randomUUID(), input, 0),
                resolveStrayHold(db, randomUUID(), input, 0),
                releaseUnusedHold(db, challengeId),
              ]);
              expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
              for (const result of settled) {
                if (result.status === 'rejected') {
                  expect(result.reason).toMatchObject({ identifier: 'invalid_action' });
                }
              }
              return;
            }
            case 'payout': {
              const payout = await requestPayout(db, limits, user, { amount: op.cents });
              payouts.push(payout.id);
              return;
            }
            case 'exportPayouts': {
              // A double click: each payout goes into one of the two files at most.
              const files = await Promise.allSettled([
                exportPayoutRequests(db, debtor, randomUUID(), null),
                exportPayoutRequests(db, debtor, randomUUID(), null),
              ]);
              for (const file of files) {
                if (file.status === 'rejected') throw file.reason;
                // Nothing open: a not_found status and no file.
                filed.push(
                  ...[
                    ...('xml' in file.value ? file.value.xml : '').matchAll(/<EndToEndId>(\w+)</g),
                  ].map((m) => m[1]!),
                );
              }
              return;
            }
            case 'cancelPayout': {
              const id = payouts[op.pick % Math.max(1, payouts.length)];
              if (!id) return;
              const staff = randomUUID();
              const input = { id, reason: 'Returned by the bank' };
              return Promise.all([cancelPayout(db, staff, input), cancelPayout(db, staff, input)]);
            }
            default: {
              const id = payouts[op.pick % Math.max(1, payouts.length)];
              if (!id) return;
              const staff = randomUUID();
              return Promise.all([completePayout(db, staff, id), completePayout(db, staff, id)]);
            }
          }
        };

        // Six at a time on the same three wallets: real contention.
        for (let i = 0; i < operations.length; i += 6) {
          const settled = await Promise.allSettled(operations.slice(i, i + 6).map(run));
          for (const result of settled) {
            if (result.status === 'rejected') {
              expect(result.reason, String(result.reason)).toBeInstanceOf(AppError);
              expect(EXPECTED_REFUSALS).toContain((result.reason as AppError).identifier);
            }
          }
        }
        await assertInvariants(users, toppedUp);
        expect(new Set(filed).size).toBe(filed.length);
      }),
      // No shrinking: each run takes real transactions, and the first counterexample says enough.
      { numRuns: 12, endOnFailure: true },
    );
  });
});

async function assertInvariants(users: string[], toppedUp: number) {
  await expectLedgerBalanced(db);

  for (const user of users) {
    const frozen = await db.ledgerAccount.findFirstOrThrow({
      where: { userId: user, kind: 'user_frozen' },
    });
    const [held, open] = await Promise.all([
      db.escrowHold.aggregate({
        _sum: { amountCents: true },
        where: { ownerId: user, status: 'held' },
      }),
      db.payoutRequest.aggregate({
        _sum: { amountCents: true },
        where: { userId: user, status: { in: ['open', 'exported'] } },
      }),
    ]);
    expect(frozen.balance).toBe((held._sum.amountCents ?? 0n) + (open._sum.amountCents ?? 0n));
  }
  // A payout is paid or cancelled, never both, and each at most once.
  const [bothWays] = await db.$queryRaw<{ count: bigint }[]>`
    SELECT COUNT(*) AS count FROM (
      SELECT split_part(idempotency_key, ':', 2) AS payout FROM ledger_transfers
      WHERE kind IN ('payout_complete', 'payout_cancel')
      GROUP BY 1 HAVING COUNT(*) > 1) twice`;
  expect(bothWays!.count).toBe(0n);
  // Each hold settled at most once.
  const [doubles] = await db.$queryRaw<{ count: bigint }[]>`
    SELECT COUNT(*) AS count FROM (
      SELECT challenge_id FROM ledger_transfers WHERE kind IN ('escrow_capture', 'escrow_release')
      GROUP BY challenge_id HAVING COUNT(*) > 1) settled_twice`;
  expect(doubles!.count).toBe(0n);

  const totals = await moneyTotals(db);
  expect(totals.totalBalance).toBe(0);
  const [sums] = await db.$queryRaw<{ topups: bigint; payouts: bigint; users: bigint }[]>`
    SELECT
      (SELECT COALESCE(SUM(amount_cents), 0) FROM ledger_transfers WHERE kind = 'top_up')::bigint AS topups,
      (SELECT COALESCE(SUM(amount_cents), 0) FROM ledger_transfers WHERE kind = 'payout_complete')::bigint AS payouts,
      (SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts WHERE kind IN ('user_available', 'user_frozen'))::bigint AS users`;
  expect(totals.totalMoneyTopUps).toBe(Number(sums!.topups));
  expect(totals.totalMoneyPayouts).toBe(Number(sums!.payouts));
  // Money in minus money out is what users hold: nothing created, nothing lost.
  expect(totals.walletSum).toBe(Number(sums!.topups) - Number(sums!.payouts));
  expect(Number(sums!.users)).toBe(totals.walletSum);
  const [mine] = await db.$queryRaw<{ topups: bigint }[]>`
    SELECT COALESCE(SUM(t.amount_cents), 0)::bigint AS topups FROM ledger_transfers t
    JOIN ledger_accounts a ON a.id = t.credit_account_id
    WHERE t.kind = 'top_up' AND a.user_id = ANY(${users}::uuid[])`;
  expect(Number(mine!.topups)).toBe(toppedUp); // a repeated top-up moved money once
  // Every held reward has its live challenge and the other way round.
  const reconciliation = await reconcileEscrow(db, 0);
  expect(reconciliation.holdsWithoutLiveChallenge).toEqual([]);
  expect(reconciliation.liveChallengesWithoutHold).toEqual([]);
}
