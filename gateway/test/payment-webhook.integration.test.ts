import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubgraphName } from '../src/supergraph.ts';
import { US_IP, startPlatform, type TestPlatform } from './support.ts';

describe('payment provider webhook', () => {
  let platform: TestPlatform;
  let wallet: Server;
  let gateway: string;
  let walletUrl: string;
  const received: { path: string; type: string; body: string }[] = [];
  let answer = 200;

  beforeAll(async () => {
    // Stands in for wallet's /webhooks/payments: records what the gateway forwards.
    wallet = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', type: req.headers['content-type'] ?? '', body });
        res.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => wallet.listen(0, '127.0.0.1', resolve));
    walletUrl = `http://127.0.0.1:${(wallet.address() as AddressInfo).port}/graphql`;
    platform = await startPlatform();
    gateway = await platform.gateway({
      production: true,
      subgraphUrls: { wallet: walletUrl } as Record<SubgraphName, string>,
    });
  });
  afterAll(async () => {
    await platform?.stop();
    wallet?.close();
  });

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${gateway.replace(/\/graphql$/, '')}/api/payments/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });

  it('forwards the id to wallet, from anywhere: the provider is not a user in Europe', async () => {
    const response = await post('id=tr_WDqYK6vllg', { 'x-forwarded-for': US_IP });
    expect(response.status).toBe(200);
    expect(received.at(-1)).toEqual({
      path: '/webhooks/payments',
      type: 'application/x-www-form-urlencoded',
      body: 'id=tr_WDqYK6vllg',
    });
  });

  it("passes wallet's failure on, so that the provider retries", async () => {
    answer = 500;
    expect((await post('id=tr_retry')).status).toBe(500);
    answer = 200;
  });

  it('forwards nothing but the id', async () => {
    await post('id=tr_a&amount=999999&status=paid');
    expect(received.at(-1)?.body).toBe('id=tr_a');
  });

  it('limits the webhook per client IP: over the limit 429 and nothing forwarded', async () => {
    const limited = await platform.gateway({
      production: true,
      subgraphUrls: { wallet: walletUrl } as Record<SubgraphName, string>,
      webhookRateLimit: { ip: 3, windowSeconds: 60 },
    });
    const postTo = (ip: string) =>
      fetch(`${limited.replace(/\/graphql$/, '')}/api/payments/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
        body: 'id=tr_flood',
      });
    const before = received.length;
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await postTo('203.0.113.7')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(received.length - before).toBe(3);
    const over = await postTo('203.0.113.7');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address (another of the provider's servers) is not held up.
    expect((await postTo('203.0.113.8')).status).toBe(200);
  });
});
