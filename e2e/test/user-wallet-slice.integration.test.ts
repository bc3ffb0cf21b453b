import { TOPICS } from '@challenge/events';
import { buildApp as buildIdentity } from '@challenge/identity/app';
import { seedUser } from '@challenge/identity/seed';
import {
  deleteTopics,
  eventually,
  produceRaw,
  readTopic,
  startTestService,
  testIdentityConfig,
  tokenFor,
  uniqueTopicPrefix,
  waitForCaughtUp,
  graphql,
  type TestService,
  testWalletConfig,
} from '@challenge/testing';
import { buildApp as buildWallet } from '@challenge/wallet/app';
import { walletCount } from '@challenge/wallet/seed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway } from '../support/gateway.ts';

const PROFILE_AND_WALLET = /* GraphQL */ `
  query ProfileAndWallet {
    getCurrentUserProfile {
      status {
        success
        identifier
      }
      profile {
        id
        username
        locale
        roles
      }
    }
    getWallet {
      status {
        success
        identifier
      }
      wallet {
        availableAmount
        freezeAmount
        totalAmount
        currency
      }
    }
  }
`;

describe('a new user gets exactly one wallet, seen through the gateway', () => {
  const topicPrefix = uniqueTopicPrefix();
  let identity: TestService<Awaited<ReturnType<typeof buildIdentity>>>;
  let wallet: TestService<Awaited<ReturnType<typeof buildWallet>>>;
  let gatewayUrl: string;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;

  beforeAll(async () => {
    [identity, wallet] = await Promise.all([
      startTestService(
        'identity',
        async (runtime, url) => buildIdentity(runtime, await testIdentityConfig(url)),
        {
          topicPrefix,
        },
      ),
      startTestService('wallet', (runtime, url) => buildWallet(runtime, testWalletConfig(url)), {
        topicPrefix,
      }),
    ]);
    gateway = await startTestGateway({ identity: identity.url, wallet: wallet.url });
    gatewayUrl = gateway.url;
  });

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([identity?.stop(), wallet?.stop()]);
    await deleteTopics(topicPrefix);
  });

  it('registers a user, publishes UserRegistered, and the wallet shows a zero balance', async () => {
    const user = await seedUser(identity.app.db, { locale: 'nl' });
    const token = await tokenFor({ id: user.id });

    const result = await eventually(async () => {
      const response = await graphql<{
        getCurrentUserProfile: {
          status: { success: boolean };
          profile: { username: string; locale: string };
        };
        getWallet: {
          status: { success: boolean; identifier: string };
          wallet: Record<string, unknown>;
        };
      }>(gatewayUrl, PROFILE_AND_WALLET, {}, { token });
      expect(response.data?.getWallet.status).toEqual({ success: true, identifier: 'ok' });
      return response;
    });

    expect(result.httpStatus).toBe(200);
    expect(result.data?.getCurrentUserProfile.status.success).toBe(true);
    expect(result.data?.getCurrentUserProfile.profile).toMatchObject({
      id: user.id,
      username: user.username,
      locale: 'nl',
      roles: ['user'],
    });
    expect(result.data?.getWallet.wallet).toEqual({
      availableAmount: 0,
      freezeAmount: 0,
      totalAmount: 0,
      currency: 'EUR',
    });
  });

  it('creates one wallet when the same UserRegistered event is delivered again', async () => {
    const user = await seedUser(identity.app.db);
    const [registered] = await readTopic(topicPrefix, TOPICS.identity, (messages) =>
      messages.some((message) => message.value?.toString().includes(user.id)),
    ).then((messages) => messages.filter((message) => message.value?.toString().includes(user.id)));
    expect(registered).toBeDefined();
    await eventually(async () => expect(await walletCount(wallet.app.db, user.id)).toBe(1));

    // Redeliver the very same message twice, as Kafka may after a rebalance.
    const duplicate = { key: registered!.key!.toString(), value: registered!.value!.toString() };
    await produceRaw(topicPrefix, TOPICS.identity, [duplicate, duplicate]);
    await waitForCaughtUp(topicPrefix, 'wallet', TOPICS.identity);

    expect(await walletCount(wallet.app.db, user.id)).toBe(1);
  });

  it('answers unauthorized without a token and refuses a forged token with HTTP 401', async () => {
    const anonymous = await graphql<{
      getWallet: { status: { success: boolean; identifier: string } };
    }>(gatewayUrl, '{ getWallet { status { success identifier } } }');
    expect(anonymous.data?.getWallet.status).toEqual({
      success: false,
      identifier: 'unauthorized',
    });

    const forged = await graphql(
      gatewayUrl,
      '{ getWallet { status { success } } }',
      {},
      { token: 'not.a.jwt' },
    );
    expect(forged.httpStatus).toBe(401);
    expect(forged.errors?.[0]?.extensions?.identifier).toBe('unauthorized');
  });
});
