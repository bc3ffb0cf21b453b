import { randomUUID } from 'node:crypto';
import { createDatabase } from '@challenge/identity/seed';
import { createTestDatabase, type TestDatabase } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Payouts } from '../support/chaos/payouts.ts';
import type { Account, ModelSystem } from '../support/model/system.ts';

/**
 * The bank test's payout invariants (ADR 95) can fail: a wallet database (the real schema, on the
 * shared PostgreSQL) holding one person whose payouts are in order and one whose paid payout was
 * also given back (the double move a missing state check would make). Only the second is named.
 */

describe("the bank test's payout invariants", () => {
  let database: TestDatabase;
  let db: ReturnType<typeof createDatabase>;

  beforeAll(async () => {
    database = await createTestDatabase('wallet');
    db = createDatabase(database.url);
  });

  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  const account = async (kind: string, userId: string) => {
    const id = randomUUID();
    await db.$executeRawUnsafe(
      `INSERT INTO ledger_accounts (id, kind, user_id) VALUES ($1::uuid, $2::"AccountKind", $3::uuid)`,
      id,
      kind,
      userId,
    );
    return id;
  };
  const move = async (key: string, kind: string, from: string, to: string, cents: number) => {
    await db.$executeRawUnsafe(
      `INSERT INTO ledger_transfers (id, idempotency_key, kind, debit_account_id, credit_account_id, amount_cents)
       VALUES ($1::uuid, $2, $3::"TransferKind", $4::uuid, $5::uuid, $6)`,
      randomUUID(),
      key,
      kind,
      from,
      to,
      cents,
    );
    await db.$executeRawUnsafe(
      `UPDATE ledger_accounts SET balance = balance - $2 WHERE id = $1::uuid`,
      from,
      cents,
    );
    await db.$executeRawUnsafe(
      `UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1::uuid`,
      to,
      cents,
    );
  };
  const payout = async (userId: string, cents: number, status: string) => {
    const id = randomUUID();
    await db.$executeRawUnsafe(
      `INSERT INTO payout_requests (id, user_id, amount_cents, name, iban, bic, address, postal_code, city,
         country_code, status, export_batch, exported_at, completed_at, cancelled_at)
       VALUES ($1::uuid, $2::uuid, $3, 'Bank', 'NL91ABNA0417164300', 'ABNANL2A', 'Street 1', '1012 AB',
         'Amsterdam', 'NL', $4::"PayoutStatus",
         CASE WHEN $4 IN ('exported', 'done') THEN 'PAYOUTS-1' END,
         CASE WHEN $4 IN ('exported', 'done') THEN now() END,
         CASE WHEN $4 = 'done' THEN now() END,
         CASE WHEN $4 = 'cancelled' THEN now() END)`,
      id,
      userId,
      cents,
      status,
    );
    return id;
  };

  /** A person who topped up 5,000 cents and has payouts done (1,000), open (1,500), cancelled (1,200). */
  async function person(name: string, platform: { provider: string; clearing: string }) {
    const id = randomUUID();
    const available = await account('user_available', id);
    const frozen = await account('user_frozen', id);
    await move(`top-up:${id}`, 'top_up', platform.provider, available, 5_000);
    const done = await payout(id, 1_000, 'done');
    await move(`payout-request:${done}`, 'payout_request', available, frozen, 1_000);
    await move(`payout-complete:${done}`, 'payout_complete', frozen, platform.clearing, 1_000);
    const open = await payout(id, 1_500, 'open');
    await move(`payout-request:${open}`, 'payout_request', available, frozen, 1_500);
    const cancelled = await payout(id, 1_200, 'cancelled');
    await move(`payout-request:${cancelled}`, 'payout_request', available, frozen, 1_200);
    await move(`payout-cancel:${cancelled}`, 'payout_cancel', frozen, available, 1_200);
    const user: Account = { id, username: name, email: `${name}@example.test`, token: '' };
    return { user, available, frozen, done };
  }

  it('name the paid payout that was also given back, and nothing of the payouts in order', async () => {
    const nobody = '00000000-0000-0000-0000-000000000000';
    const platform = {
      provider: await account('provider_clearing', nobody),
      clearing: await account('payout_clearing', nobody),
    };
    const ok = await person('in_order', platform);
    const bad = await person('given_back', platform);
    // The double move: the paid payout's money also goes back to the person's available balance.
    await move(`payout-cancel:${bad.done}`, 'payout_cancel', bad.frozen, bad.available, 1_000);

    const balance = async (accountId: string) =>
      Number(
        (
          await db.$queryRawUnsafe<{ balance: bigint }[]>(
            `SELECT balance FROM ledger_accounts WHERE id = $1::uuid`,
            accountId,
          )
        )[0]!.balance,
      );
    const reads = new Map<string, object>();
    for (const each of [ok, bad]) {
      reads.set(each.user.id, {
        availableAmount: await balance(each.available),
        freezeAmount: await balance(each.frozen),
        openPayoutAmount: 1_500,
      });
    }
    // The wallet as the people read it through the gateway: the ledger's figures.
    const system = {
      db: () => db,
      call: async (_query: string, _variables: unknown, as: Account) => ({
        answer: 'ok',
        data: { wallet: reads.get(as.id) },
      }),
    } as unknown as ModelSystem;
    const paid = new Map([ok, bad].map((each) => [each.user.id, { count: 1, cents: 5_000 }]));

    const { problems, byStatus } = await new Payouts(system, () => {}).problems(
      [ok.user, bad.user],
      paid,
    );

    expect(byStatus).toEqual({ done: 2, open: 2, cancelled: 2 });
    expect(problems).toEqual([
      `payout ${bad.done} (done, 1000 cents): 1 payout_cancel transfers, 0 wanted`,
      'given_back: frozen 500, stakes held 0 + payouts open 1500',
    ]);
  });
});
