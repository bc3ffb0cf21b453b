// The local payment sandbox (scripts/payment-sandbox.mjs), driven through the official Mollie client.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createMollieClient, MollieApiError } from '@mollie/api-client';
import { eventually, stack } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sandbox = stack.paymentSandbox;

/**
 * The client refuses http:// endpoints and pins Mollie's CA list on its own https.Agent, so the
 * sandbox's self-signed certificate is added to that Agent while the client is made.
 */
function sandboxClient(apiKey = sandbox.apiKey) {
  const ca = fs.readFileSync(sandbox.caFile, 'utf8');
  const { Agent } = https;
  class TrustingAgent extends Agent {
    constructor(options?: https.AgentOptions) {
      super({ ...options, ca: [options?.ca ?? [], ca].flat() });
    }
  }
  Object.assign(https, { Agent: TrustingAgent });
  try {
    return createMollieClient({ apiKey, apiEndpoint: sandbox.apiUrl });
  } finally {
    Object.assign(https, { Agent });
  }
}

interface WebhookCall {
  event: string;
  attempt: number;
  status: number | null;
  ok: boolean;
}

async function control(path: string, body?: unknown) {
  const response = await fetch(`${sandbox.baseUrl}/sandbox/payments/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const webhookCalls = async (id: string) =>
  (await control(`${id}/webhook-calls`)).body as WebhookCall[];

async function apiError(promise: Promise<unknown>): Promise<MollieApiError> {
  try {
    await promise;
  } catch (error) {
    return error as MollieApiError;
  }
  throw new Error('expected the call to fail');
}

describe('payment sandbox', () => {
  const mollie = sandboxClient();
  // The shop's webhook endpoint: records each call, answers with the queued statuses, then 200.
  const received: Array<{ path: string; contentType: string; body: string }> = [];
  const answers: number[] = [];
  const shop = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body });
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  let shopUrl = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => shop.close(resolve)));

  const create = (value = '10.00', extra: Record<string, string> = {}) =>
    mollie.payments.create({
      amount: { currency: 'EUR', value },
      description: 'Wallet top-up',
      redirectUrl: `${shopUrl}/wallet?topUp=1`,
      webhookUrl: `${shopUrl}/webhook`,
      metadata: { topUpId: 'top-up-1' },
      ...extra,
    });

  it('creates an open payment with a checkout link, and reports it paid after the control API pays it', async () => {
    const payment = await create();
    expect(payment).toMatchObject({
      resource: 'payment',
      mode: 'test',
      status: 'open',
      amount: { currency: 'EUR', value: '10.00' },
      description: 'Wallet top-up',
      metadata: { topUpId: 'top-up-1' },
      webhookUrl: `${shopUrl}/webhook`,
    });
    expect(payment.id).toMatch(/^tr_\w{10}$/);
    expect(payment.getCheckoutUrl()).toBe(`${sandbox.baseUrl}/checkout/${payment.id}`);
    expect(Date.parse(payment.expiresAt!)).toBeGreaterThan(Date.now());

    const fetched = await mollie.payments.get(payment.id);
    expect(fetched.status).toBe('open');

    const paid = await control(`${payment.id}/status`, { status: 'paid' });
    expect(paid).toMatchObject({ status: 200, body: { status: 'paid' } });
    // The control API answers after the first webhook attempt.
    expect(received.filter((r) => r.body === `id=${payment.id}`)).toEqual([
      {
        path: '/webhook',
        contentType: 'application/x-www-form-urlencoded',
        body: `id=${payment.id}`,
      },
    ]);

    const after = await mollie.payments.get(payment.id);
    expect(after.status).toBe('paid');
    expect(after.paidAt).toBeTruthy();
    expect(after.getCheckoutUrl()).toBeNull();
    expect(after.amountRefunded).toEqual({ currency: 'EUR', value: '0.00' });
    expect(after.amountRemaining).toEqual({ currency: 'EUR', value: '10.00' });
    expect(await webhookCalls(payment.id)).toMatchObject([
      { event: 'status:paid', attempt: 1, status: 200, ok: true },
    ]);
    // A final status stays final.
    expect(await control(`${payment.id}/status`, { status: 'failed' })).toMatchObject({
      status: 422,
    });
  });

  it('retries the webhook when the shop answers 500', async () => {
    const payment = await create('2.50');
    answers.push(500);
    await control(`${payment.id}/status`, { status: 'failed' });
    const calls = await eventually(async () => {
      const list = await webhookCalls(payment.id);
      expect(list).toHaveLength(2);
      return list;
    });
    expect(calls).toMatchObject([
      { event: 'status:failed', attempt: 1, status: 500, ok: false },
      { event: 'status:failed', attempt: 2, status: 200, ok: true },
    ]);
    expect(received.filter((r) => r.body === `id=${payment.id}`)).toHaveLength(2);
    expect((await mollie.payments.get(payment.id)).status).toBe('failed');
  });

  it('shows refunds and chargebacks through payments.get, and calls the webhook for each', async () => {
    const payment = await create('10.00');
    await control(`${payment.id}/status`, { status: 'paid' });

    const refund = await control(`${payment.id}/refunds`, { amount: '3.00' });
    expect(refund).toMatchObject({
      status: 201,
      body: { resource: 'refund', amount: { value: '3.00' }, paymentId: payment.id },
    });
    // A refund through Mollie's own endpoint, as the wallet would make one.
    const viaApi = await mollie.paymentRefunds.create({
      paymentId: payment.id,
      amount: { currency: 'EUR', value: '1.00' },
      description: 'partial refund',
    });
    expect(viaApi.id).toMatch(/^re_/);
    const chargeback = await control(`${payment.id}/chargebacks`, { amount: '5.00' });
    expect(chargeback).toMatchObject({
      status: 201,
      body: { resource: 'chargeback', amount: { value: '5.00' } },
    });

    const after = await mollie.payments.get(payment.id);
    expect(after.status).toBe('paid');
    expect(after.amountRefunded).toEqual({ currency: 'EUR', value: '4.00' });
    expect(after.amountChargedBack).toEqual({ currency: 'EUR', value: '5.00' });
    expect(after.amountRemaining).toEqual({ currency: 'EUR', value: '1.00' });
    expect(after.hasRefunds()).toBe(true);
    expect(after.hasChargebacks()).toBe(true);
    // The client follows _links.refunds and _links.chargebacks back to the sandbox.
    const refunds: string[] = [];
    await after.getRefunds().forEach((r) => refunds.push(r.amount.value));
    expect(refunds.sort()).toEqual(['1.00', '3.00']);
    const chargebacks = await mollie.paymentChargebacks.page({ paymentId: payment.id });
    expect(chargebacks.map((c) => c.amount.value)).toEqual(['5.00']);

    await eventually(async () =>
      expect((await webhookCalls(payment.id)).map((c) => c.event.split(':')[0])).toEqual([
        'status',
        'refund',
        'refund',
        'chargeback',
      ]),
    );
    expect(await control(`${payment.id}/refunds`, { amount: '1.01' })).toMatchObject({
      status: 422,
      body: { field: 'amount' },
    });
  });

  it('answers 401 for a wrong key and 404 for an unknown payment, as ApiErrors', async () => {
    const wrongKey = sandboxClient('test_wrongwrongwrongwrongwrongwrong');
    const unauthorized = await apiError(wrongKey.payments.get('tr_0000000000'));
    expect(unauthorized).toBeInstanceOf(MollieApiError);
    expect(unauthorized).toMatchObject({ statusCode: 401, title: 'Unauthorized Request' });

    const missing = await apiError(mollie.payments.get('tr_doesnotexist'));
    expect(missing).toBeInstanceOf(MollieApiError);
    expect(missing.statusCode).toBe(404);
    expect(missing.message).toContain('tr_doesnotexist');
    expect(missing.getDocumentationUrl()).toMatch(/^https:\/\/docs\.mollie\.com\//);
  });

  it.each([
    ['a value without two decimals', { amount: { currency: 'EUR', value: '10' } }, 'amount.value'],
    ['a numeric value', { amount: { currency: 'EUR', value: 10 } }, 'amount.value'],
    ['zero', { amount: { currency: 'EUR', value: '0.00' } }, 'amount'],
    ['another currency', { amount: { currency: 'USD', value: '10.00' } }, 'amount'],
    ['no redirectUrl', { redirectUrl: undefined }, 'redirectUrl'],
    ['an invalid redirectUrl', { redirectUrl: 'not a url' }, 'redirectUrl'],
    ['an invalid webhookUrl', { webhookUrl: 'ftp://example.org/hook' }, 'webhookUrl'],
  ])('answers 422 for %s', async (_case, change, field) => {
    const parameters = {
      amount: { currency: 'EUR', value: '10.00' },
      description: 'Wallet top-up',
      redirectUrl: `${shopUrl}/wallet`,
      webhookUrl: `${shopUrl}/webhook`,
      ...change,
    } as Parameters<typeof mollie.payments.create>[0];
    const error = await apiError(mollie.payments.create(parameters));
    expect(error).toBeInstanceOf(MollieApiError);
    expect(error).toMatchObject({ statusCode: 422, title: 'Unprocessable Entity', field });
  });

  it('serves a checkout page whose Pay button marks the payment paid and returns to the shop', async () => {
    const payment = await create('7.50');
    const checkout = payment.getCheckoutUrl()!;
    const page = await (await fetch(checkout)).text();
    expect(page).toContain('€7.50');
    expect(page).toContain('Wallet top-up');
    for (const action of ['paid', 'failed', 'canceled', 'expired'])
      expect(page).toContain(`name="action" value="${action}"`);
    expect(page).toMatch(/>Pay<\/button>[\s\S]*>Fail<\/button>[\s\S]*>Cancel<\/button>/);
    expect(page).toContain('let it expire');

    const response = await fetch(checkout, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=paid',
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${shopUrl}/wallet?topUp=1`);
    expect((await mollie.payments.get(payment.id)).status).toBe('paid');
    expect(received.filter((r) => r.body === `id=${payment.id}`)).toHaveLength(1);

    const done = await (await fetch(checkout)).text();
    expect(done).toContain('This payment is paid');
    expect(done).not.toContain('name="action"');
  });

  it('sends a canceled checkout to the cancelUrl', async () => {
    const payment = await create('1.00', { cancelUrl: `${shopUrl}/wallet?canceled=1` });
    const response = await fetch(payment.getCheckoutUrl()!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=canceled',
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${shopUrl}/wallet?canceled=1`);
    const canceled = await mollie.payments.get(payment.id);
    expect(canceled.status).toBe('canceled');
    expect(canceled.canceledAt).toBeTruthy();
  });
});
