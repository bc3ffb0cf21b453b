import { randomUUID } from 'node:crypto';
import { deleteTopics, eventually, graphql, stack, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transfer } from '../src/domain/ledger.ts';
import { recheckMoneyTakenBack } from '../src/domain/payments.ts';
import { PAYMENT_WEBHOOK_PATH } from '../src/http/routes.ts';
import { balances, startWallet, userWithBalance } from './support.ts';

const INITIALIZE = `mutation($input: InitializePaymentInput!) { InitializePayment(input: $input) {
  status { success identifier message } payment_url paymentId } }`;
const TOP_UP = `query($id: ID!) { getTopUp(id: $id) { status { success identifier }
  topUp { amount paymentStatus originUrl paidAt } wallet { availableAmount } } }`;

/** The sandbox's own control API: what a person clicking on the checkout page would cause. */
async function sandbox(path: string, body: object) {
  const response = await fetch(`${stack.paymentSandbox.baseUrl}/sandbox/payments/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return response.json() as Promise<Record<string, unknown>>;
}

describe('card top-ups through the payment provider (the local Mollie sandbox)', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: Awaited<ReturnType<typeof startWallet>>;

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix);
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });

  async function startTopUp(userId: string, amount: number, originUrl = '/wallet') {
    const result = await graphql(
      wallet.url,
      INITIALIZE,
      { input: { amount, originUrl } },
      { id: userId },
    );
    return result.data!.InitializePayment as {
      status: { success: boolean; identifier: string; message: string };
      payment_url: string | null;
      paymentId: string | null;
    };
  }

  const providerId = async (topUpId: string) =>
    (await wallet.app.db.topUpPayment.findUniqueOrThrow({ where: { id: topUpId } }))
      .providerPaymentId!;

  const webhook = (id: string) =>
    fetch(new URL(PAYMENT_WEBHOOK_PATH, wallet.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id }).toString(),
    });

  it('credits a paid top-up once, however often the webhook comes', async () => {
    const user = await userWithBalance(wallet.app, 0);
    const started = await startTopUp(user, 2500, '/challenge/create/step-2?draft=1');
    expect(started.status.success).toBe(true);
    expect(started.payment_url).toMatch(
      new RegExp(`^${stack.paymentSandbox.baseUrl}/checkout/tr_\\w+$`),
    );
    const before = await graphql(wallet.url, TOP_UP, { id: started.paymentId }, { id: user });
    expect(before.data?.getTopUp.topUp).toEqual({
      amount: 2500,
      paymentStatus: 'open',
      originUrl: '/challenge/create/step-2?draft=1',
      paidAt: null,
    });

    const id = await providerId(started.paymentId!);
    await sandbox(`${id}/status`, { status: 'paid' }); // the sandbox calls the webhook
    const responses = await Promise.all([webhook(id), webhook(id), webhook(id)]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);

    const after = await graphql(wallet.url, TOP_UP, { id: started.paymentId }, { id: user });
    expect(after.data?.getTopUp).toMatchObject({
      status: { success: true, identifier: 'ok' },
      topUp: { paymentStatus: 'paid', paidAt: expect.any(String) },
      wallet: { availableAmount: 2500 },
    });
    expect(
      await wallet.app.db.ledgerTransfer.count({
        where: { idempotencyKey: `top-up:${started.paymentId}` },
      }),
    ).toBe(1);
    // Only its owner sees it.
    const stranger = await graphql(
      wallet.url,
      TOP_UP,
      { id: started.paymentId },
      { id: randomUUID() },
    );
    expect(stranger.data?.getTopUp.status).toEqual({ success: false, identifier: 'not_found' });
  });

  it('answers a repeated request with the same payment: one top-up per idempotency key', async () => {
    const user = await userWithBalance(wallet.app, 0);
    const input = { amount: 1500, originUrl: '/wallet', idempotencyKey: `form-${randomUUID()}` };
    const first = await graphql(wallet.url, INITIALIZE, { input }, { id: user });
    const repeats = await Promise.all(
      [1, 2].map(() => graphql(wallet.url, INITIALIZE, { input }, { id: user })),
    );
    for (const repeat of repeats) {
      expect(repeat.data?.InitializePayment).toEqual(first.data?.InitializePayment);
    }
    expect(await wallet.app.db.topUpPayment.count({ where: { userId: user } })).toBe(1);
    const other = await graphql(
      wallet.url,
      INITIALIZE,
      { input: { ...input, amount: 1600 } },
      { id: user },
    );
    expect(other.data?.InitializePayment.status.identifier).toBe('invalid_input');
  });

  it('pays through the checkout page: a 303 back to the payment success page, then the money', async () => {
    const user = await userWithBalance(wallet.app, 0);
    const started = await startTopUp(user, 1000);
    const page = await fetch(started.payment_url!);
    expect(await page.text()).toMatch(/Pay/);
    const pay = await fetch(started.payment_url!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=paid',
      redirect: 'manual',
    });
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toBe(
      `https://challenge.test/wallet/payment-success?payment=${started.paymentId}`,
    );
    await eventually(async () =>
      expect(await balances(wallet.app, user)).toEqual({ available: 1000, frozen: 0 }),
    );
  });

  it.each(['failed', 'canceled', 'expired'])(
    'records a %s payment and moves nothing',
    async (status) => {
      const user = await userWithBalance(wallet.app, 0);
      const started = await startTopUp(user, 700);
      await sandbox(`${await providerId(started.paymentId!)}/status`, { status });
      await eventually(async () => {
        const result = await graphql(wallet.url, TOP_UP, { id: started.paymentId }, { id: user });
        expect(result.data?.getTopUp.topUp.paymentStatus).toBe(status);
      });
      expect(await balances(wallet.app, user)).toEqual({ available: 0, frozen: 0 });
    },
  );

  it('ignores a webhook for an unknown payment and one that claims what the provider does not say', async () => {
    expect((await webhook('tr_doesnotexist')).status).toBe(200);
    const user = await userWithBalance(wallet.app, 0);
    const started = await startTopUp(user, 900);
    expect((await webhook(await providerId(started.paymentId!))).status).toBe(200); // still open
    expect(await balances(wallet.app, user)).toEqual({ available: 0, frozen: 0 });
    expect((await webhook('not an id; drop table')).status).toBe(400);
  });

  it('takes a refund and a chargeback back, never below zero, recording what it could not recover', async () => {
    const user = await userWithBalance(wallet.app, 0);
    const started = await startTopUp(user, 5000);
    const id = await providerId(started.paymentId!);
    await sandbox(`${id}/status`, { status: 'paid' });
    await eventually(async () =>
      expect(await balances(wallet.app, user)).toEqual({ available: 5000, frozen: 0 }),
    );
    await sandbox(`${id}/refunds`, { amount: '20.00' });
    await eventually(async () =>
      expect(await balances(wallet.app, user)).toEqual({ available: 3000, frozen: 0 }),
    );
    // The user spends most of the rest (a payout frozen by hand here), then the bank charges back.
    await transfer(wallet.app.db, {
      idempotencyKey: `spend:${user}`,
      kind: 'payout_request',
      from: { user, kind: 'user_available' },
      to: { user, kind: 'user_frozen' },
      amountCents: 2000n,
    });
    await sandbox(`${id}/chargebacks`, { amount: '30.00' });
    await webhook(id); // again: changes nothing
    await eventually(async () => {
      const topUp = await wallet.app.db.topUpPayment.findUniqueOrThrow({
        where: { id: started.paymentId! },
      });
      expect(topUp).toMatchObject({
        refundedCents: 2000n,
        chargedBackCents: 3000n,
        unrecoveredCents: 2000n,
      });
    });
    expect(await balances(wallet.app, user)).toEqual({ available: 0, frozen: 2000 });
    const kinds = await wallet.app.db.ledgerTransfer.groupBy({
      by: ['kind'],
      where: { description: id },
      _sum: { amountCents: true },
    });
    expect(Object.fromEntries(kinds.map((k) => [k.kind, k._sum.amountCents]))).toEqual({
      top_up: 5000n,
      refund: 2000n,
      chargeback: 1000n,
    });
  });

  it.each([
    'https://evil.example/wallet',
    '//evil.example/wallet',
    'javascript:alert(1)',
    'wallet',
    '',
    '/\\evil.example',
  ])('refuses the origin URL %j with invalid_origin_url', async (originUrl) => {
    const user = await userWithBalance(wallet.app, 0);
    const result = await startTopUp(user, 1000, originUrl);
    expect(result.status.identifier).toBe('invalid_origin_url');
    expect(result.payment_url).toBeNull();
    expect(await wallet.app.db.topUpPayment.count({ where: { userId: user } })).toBe(0);
  });

  it('refuses a top-up under the minimum and over the monthly deposit limit', async () => {
    const user = await userWithBalance(wallet.app, 0);
    expect((await startTopUp(user, 499)).status.identifier).toBe('invalid_input');
    expect((await startTopUp(user, 90_000)).status.success).toBe(true);
    // Open top-ups count: they may still be paid.
    expect((await startTopUp(user, 10_001)).status.identifier).toBe('limit_exceeded_this_month');
    expect((await startTopUp(user, 10_000)).status.success).toBe(true);
    const nobody = await startTopUp(randomUUID(), 1000);
    expect(nobody.status.identifier).toBe('wallet_not_found');
  });

  it('asks the provider nothing about a payment id we never stored', async () => {
    // A spy on our own adapter (it still calls the sandbox): which ids reach the provider.
    const asked: string[] = [];
    const getPayment = wallet.app.provider.getPayment;
    wallet.app.provider.getPayment = (id) => {
      asked.push(id);
      return getPayment(id);
    };
    try {
      const answers = await Promise.all(
        ['tr_madeup1', 'tr_madeup2', 'tr_madeup3'].map((id) => webhook(id)),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(asked).toEqual([]);
      const user = await userWithBalance(wallet.app, 0);
      const started = await startTopUp(user, 700);
      const id = await providerId(started.paymentId!);
      expect((await webhook(id)).status).toBe(200);
      expect(asked).toEqual([id]);
    } finally {
      wallet.app.provider.getPayment = getPayment;
    }
  });

  it('answers unauthorized without a logged-in user', async () => {
    const result = await graphql(wallet.url, INITIALIZE, {
      input: { amount: 1000, originUrl: '/' },
    });
    expect(result.data?.InitializePayment.status.identifier).toBe('unauthorized');
  });
});

describe('card top-ups in production: only live payments are money', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: Awaited<ReturnType<typeof startWallet>>;

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix, { requireLivePayments: true });
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });

  it('does not credit a paid payment in test mode (the sandbox is always test mode)', async () => {
    const user = await userWithBalance(wallet.app, 0);
    const started = await graphql(
      wallet.url,
      INITIALIZE,
      { input: { amount: 1500, originUrl: '/wallet' } },
      { id: user },
    );
    const topUpId = started.data!.InitializePayment.paymentId as string;
    const { providerPaymentId } = await wallet.app.db.topUpPayment.findUniqueOrThrow({
      where: { id: topUpId },
    });
    await sandbox(`${providerPaymentId}/status`, { status: 'paid' });
    const answer = await fetch(new URL(PAYMENT_WEBHOOK_PATH, wallet.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id: providerPaymentId! }).toString(),
    });
    expect(answer.status).toBe(200);
    expect(await balances(wallet.app, user)).toEqual({ available: 0, frozen: 0 });
    const topUp = await graphql(wallet.url, TOP_UP, { id: topUpId }, { id: user });
    expect(topUp.data?.getTopUp.topUp.paymentStatus).toBe('open');
    expect(await wallet.app.db.ledgerTransfer.count({ where: { kind: 'top_up' } })).toBe(0);
  });
});

describe('card top-ups whose webhooks never arrive (found by the bank test, ADR 95)', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: Awaited<ReturnType<typeof startWallet>>;

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix, {
      // The provider's webhooks go nowhere: every attempt fails, as while the platform is down.
      paymentWebhookUrl: () => 'http://127.0.0.1:9/api/payments/webhook',
      reconciliation: { intervalMs: 200, graceMs: 0 },
    });
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });

  it('credits a paid top-up once when the reconciliation asks the provider about open ones', async () => {
    const user = await userWithBalance(wallet.app, 0);
    const started = await graphql(
      wallet.url,
      INITIALIZE,
      { input: { amount: 1500, originUrl: '/wallet' } },
      { id: user },
    );
    const topUpId = started.data!.InitializePayment.paymentId as string;
    const { providerPaymentId } = await wallet.app.db.topUpPayment.findUniqueOrThrow({
      where: { id: topUpId },
    });
    await sandbox(`${providerPaymentId}/status`, { status: 'paid' });
    await eventually(async () => {
      expect(await balances(wallet.app, user)).toEqual({ available: 1500, frozen: 0 });
    }, 45_000);
    // Paid now: later passes no longer ask about it, and the one transfer is the top-up's own.
    const topUp = await wallet.app.db.topUpPayment.findUniqueOrThrow({ where: { id: topUpId } });
    expect(topUp.status).toBe('paid');
    expect(
      await wallet.app.db.ledgerTransfer.count({ where: { idempotencyKey: `top-up:${topUpId}` } }),
    ).toBe(1);
  });

  it('takes back a refund and a chargeback once when the reconciliation reads what the provider took back', async () => {
    const user = await userWithBalance(wallet.app, 0);
    const started = await graphql(
      wallet.url,
      INITIALIZE,
      { input: { amount: 4000, originUrl: '/wallet' } },
      { id: user },
    );
    const topUpId = started.data!.InitializePayment.paymentId as string;
    const { providerPaymentId } = await wallet.app.db.topUpPayment.findUniqueOrThrow({
      where: { id: topUpId },
    });
    await sandbox(`${providerPaymentId}/status`, { status: 'paid' });
    await eventually(async () => {
      expect(await balances(wallet.app, user)).toEqual({ available: 4000, frozen: 0 });
    }, 45_000);
    // The provider takes money back; its webhooks are lost like every other here.
    await sandbox(`${providerPaymentId}/refunds`, { amount: '10.00' });
    await sandbox(`${providerPaymentId}/chargebacks`, { amount: '5.00' });
    await eventually(async () => {
      expect(await balances(wallet.app, user)).toEqual({ available: 2500, frozen: 0 });
    }, 45_000);
    const topUp = await wallet.app.db.topUpPayment.findUniqueOrThrow({ where: { id: topUpId } });
    expect(topUp).toMatchObject({ refundedCents: 1000n, chargedBackCents: 500n });
    // Later passes read the same refund and chargeback again and move nothing more.
    const deps = {
      db: wallet.app.db,
      provider: wallet.app.provider,
      limits: wallet.config.limits,
      publicOrigin: wallet.config.publicOrigin,
      webhookUrl: wallet.config.paymentWebhookUrl,
      requireLiveMode: false,
      logger: wallet.runtime.logger,
    };
    expect(await recheckMoneyTakenBack(deps)).toBe(0);
    const kinds = await wallet.app.db.ledgerTransfer.groupBy({
      by: ['kind'],
      where: { description: providerPaymentId },
      _sum: { amountCents: true },
      _count: true,
    });
    expect(Object.fromEntries(kinds.map((k) => [k.kind, [k._count, k._sum.amountCents]]))).toEqual({
      top_up: [1, 4000n],
      refund: [1, 1000n],
      chargeback: [1, 500n],
    });
    expect(await balances(wallet.app, user)).toEqual({ available: 2500, frozen: 0 });
  });
});
