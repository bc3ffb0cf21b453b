import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedUser } from '@challenge/identity/seed';
import { eventually, graphql, tokenFor, uniqueTopicPrefix } from '@challenge/testing';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMoneyPlatform } from '../support/money.ts';

const webDist = path.resolve(fileURLToPath(import.meta.url), '../../../web/dist');
/** Debian's Chromium, which the stack installs (never a downloaded browser). */
const chromiumPath = execFileSync('sh', ['-c', 'command -v chromium || true'], {
  encoding: 'utf8',
}).trim();

/**
 * A person tops up in a real browser: the wallet page of the built web app served by the
 * gateway, the sandbox's checkout page, Pay, and back on the payment success page with the
 * money credited by the webhook.
 */
describe('top-up in the browser', () => {
  const topicPrefix = uniqueTopicPrefix();
  let platform: Awaited<ReturnType<typeof startMoneyPlatform>>;
  let browser: Browser;

  beforeAll(async () => {
    // turbo builds the web before this package's tests (turbo.json); say so if it did not.
    if (!existsSync(path.join(webDist, 'index.html')))
      throw new Error(`no web build in ${webDist}`);
    platform = await startMoneyPlatform(topicPrefix, { webDist });
    browser = await chromium.launch({ executablePath: chromiumPath });
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('pays on the checkout page and comes back to a credited wallet', async () => {
    const user = await seedUser(platform.identity.app.db);
    const token = await tokenFor({ id: user.id });
    await eventually(async () => {
      const result = await graphql(
        platform.gateway.url,
        '{ getWallet { status { success } } }',
        {},
        { token },
      );
      expect(result.data?.getWallet.status.success).toBe(true);
    });
    const context = await browser.newContext({ locale: 'en-GB' });
    // The session cookie the gateway sets at log-in (HttpOnly; no Secure over plain http).
    await context.addCookies([
      { name: 'session', value: token, url: platform.origin, httpOnly: true },
      // A returning visitor: no intro video over the page.
      { name: 'firstTimeVisitVideoWatched', value: 'true', url: platform.origin },
    ]);
    const page = await context.newPage();

    await page.goto(`${platform.origin}/wallet`);
    await page.locator('input[name="topUpAmount"]').fill('20');
    await page.getByRole('button', { name: /^Top up €20\.00/ }).click();

    await page.waitForURL(/\/checkout\/tr_/);
    await page.getByText('€20.00').first().waitFor(); // the checkout shows the amount
    await page.getByRole('button', { name: 'Pay', exact: true }).click();

    await page.waitForURL(/\/wallet\/payment-success\?payment=/);
    await page.getByText('Your top-up was successful').waitFor({ timeout: 20_000 });
    expect(await page.getByText('€20.00').count()).toBeGreaterThan(0);
    const balance = await graphql(
      platform.gateway.url,
      '{ getWallet { wallet { availableAmount } } }',
      {},
      { token },
    );
    expect(balance.data?.getWallet.wallet.availableAmount).toBe(2000);
    await context.close();
  });
});
