import { buildApp as buildIdentity } from '@challenge/identity/app';
import {
  deleteTopics,
  freePort,
  startTestService,
  testIdentityConfig,
  testWalletConfig,
} from '@challenge/testing';
import { buildApp as buildWallet } from '@challenge/wallet/app';
import { startTestGateway } from './gateway.ts';

/**
 * Identity, wallet and the gateway for the money path. The payment provider posts its webhooks
 * to the gateway's public /api/payments/webhook, as Mollie would in production. With `webDist`
 * the gateway also serves the built web app and is the site's origin (top-ups return to it).
 */
export async function startMoneyPlatform(topicPrefix: string, options: { webDist?: string } = {}) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const [identity, wallet] = await Promise.all([
    startTestService(
      'identity',
      async (runtime, url) => buildIdentity(runtime, await testIdentityConfig(url)),
      { topicPrefix },
    ),
    startTestService(
      'wallet',
      (runtime, url) => {
        const config = testWalletConfig(url, () => `${origin}/api/payments/webhook`);
        return buildWallet(runtime, options.webDist ? { ...config, publicOrigin: origin } : config);
      },
      { topicPrefix },
    ),
  ]);
  const gateway = await startTestGateway(
    { identity: identity.url, wallet: wallet.url },
    options.webDist ? { publicOrigin: origin, webDistDir: options.webDist } : {},
    port,
  );
  return {
    identity,
    wallet,
    gateway,
    origin,
    async stop() {
      await gateway.stop();
      await Promise.all([identity.stop(), wallet.stop()]);
      await deleteTopics(topicPrefix);
    },
  };
}
