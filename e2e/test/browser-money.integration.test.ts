import { seedUser } from '@challenge/identity/seed';
import { eventually, graphql, tokenFor, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, webDist } from '../support/browser.ts';
import { startMoneyPlatform } from '../support/money.ts';

/**
 * A person tops up in a real browser: the wallet page of the built web app served by the
 * gateway, the sandbox's checkout page, Pay, and back on the payment success page with the
 * money credited by the webhook.
 */
describe('top-up in the browser', () => {
  const topicPrefix = uniqueTopicPrefix();
  let platform: Awaited<ReturnType<typeof startMoneyPlatform>>;
  let browsers: Browsers;

  beforeAll(async () => {
    platform = await startMoneyPlatform(topicPrefix, { webDist });
    browsers = await Browsers.launch(platform.origin);
  });
  afterAll(async () => {
    await browsers?.close();
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
    const page = await browsers.pageOf(user);

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
  });
});
