import { TOPICS, newEvent } from '@challenge/events';
import { seedUser } from '@challenge/identity/seed';
import { createEscrowClient } from '@challenge/kit';
import {
  TEST_INTERNAL_API_TOKEN,
  eventually,
  graphql,
  produceRaw,
  tokenFor,
  uniqueTopicPrefix,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMoneyPlatform } from '../support/money.ts';

const WALLET =
  '{ getWallet { status { success identifier } wallet { availableAmount freezeAmount openPayoutAmount } } }';

/**
 * The money path end to end through the gateway: a card top-up paid on the sandbox's checkout
 * page with the webhook coming back through the gateway, a reward held and paid out by the
 * challenge saga's events, and a payout to the bank exported and completed by a moderator.
 */
describe('money through the gateway: top-up, reward, payout', () => {
  const topicPrefix = uniqueTopicPrefix();
  let platform: Awaited<ReturnType<typeof startMoneyPlatform>>;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  const moderator = { id: crypto.randomUUID(), roles: ['user' as const, 'moderator' as const] };

  beforeAll(async () => {
    platform = await startMoneyPlatform(topicPrefix);
    const [a, b] = await Promise.all([
      seedUser(platform.identity.app.db),
      seedUser(platform.identity.app.db),
    ]);
    alice = { id: a.id, token: await tokenFor({ id: a.id }) };
    bob = { id: b.id, token: await tokenFor({ id: b.id }) };
  });
  afterAll(() => platform?.stop());

  const walletOf = async (who: { token: string }) =>
    (await graphql(platform.gateway.url, WALLET, {}, who)).data?.getWallet;

  it('tops up by card: checkout paid, webhook through the gateway, balance credited', async () => {
    await eventually(async () => expect((await walletOf(alice)).status.success).toBe(true));
    const started = await graphql(
      platform.gateway.url,
      `
        mutation ($input: InitializePaymentInput!) {
          InitializePayment(input: $input) {
            status {
              success
            }
            payment_url
            paymentId
          }
        }
      `,
      { input: { amount: 2000, originUrl: '/challenge/create/step-2' } },
      alice,
    );
    const { payment_url: checkout, paymentId } = started.data!.InitializePayment;
    const paid = await fetch(checkout, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=paid',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(
      `https://challenge.test/wallet/payment-success?payment=${paymentId}`,
    );
    await eventually(async () =>
      expect((await walletOf(alice)).wallet).toEqual({
        availableAmount: 2000,
        freezeAmount: 0,
        openPayoutAmount: 0,
      }),
    );
    const topUp = await graphql(
      platform.gateway.url,
      'query($id: ID!) { getTopUp(id: $id) { topUp { paymentStatus originUrl } } }',
      { id: paymentId },
      alice,
    );
    expect(topUp.data?.getTopUp.topUp).toEqual({
      paymentStatus: 'paid',
      originUrl: '/challenge/create/step-2',
    });
  });

  it("holds alice's reward and pays it to bob when the challenge completes", async () => {
    const escrow = createEscrowClient({
      baseUrl: platform.wallet.url,
      token: TEST_INTERNAL_API_TOKEN,
    });
    const challenge = {
      challengeId: crypto.randomUUID(),
      slug: 'juggle-three-oranges',
      challengeName: 'Juggle three oranges',
      rewardCents: 1500,
      ownerId: alice.id,
      challengedUserId: bob.id,
      challengedEmail: null,
    };
    await escrow.hold({ ...challenge, amountCents: challenge.rewardCents });
    expect((await walletOf(alice)).wallet).toMatchObject({
      availableAmount: 500,
      freezeAmount: 1500,
    });
    const events = [
      newEvent('ChallengeCreated', {
        aggregateId: challenge.challengeId,
        actorId: alice.id,
        data: { ...challenge, visibility: 'public', expiresAt: '2030-01-01T00:00:00.000Z' },
      }),
      newEvent('ChallengeCompleted', {
        aggregateId: challenge.challengeId,
        actorId: alice.id,
        data: { ...challenge, judgedByReferee: false },
      }),
    ].map((event) => ({ key: event.aggregateId, value: JSON.stringify(event) }));
    await produceRaw(topicPrefix, TOPICS.challenge, events);
    await eventually(async () =>
      expect((await walletOf(bob)).wallet).toMatchObject({ availableAmount: 1500 }),
    );
    expect((await walletOf(alice)).wallet).toMatchObject({ availableAmount: 500, freezeAmount: 0 });
    const history = await graphql(
      platform.gateway.url,
      '{ getWalletTransactions { items { kind availableChange challenge { slug challengeName } } } }',
      {},
      bob,
    );
    expect(history.data?.getWalletTransactions.items).toEqual([
      {
        kind: 'escrow_capture',
        availableChange: 1500,
        challenge: { slug: 'juggle-three-oranges', challengeName: 'Juggle three oranges' },
      },
    ]);
  });

  it('pays bob out: request, SEPA export and completion by a moderator', async () => {
    const profile = await graphql(
      platform.gateway.url,
      `
        mutation ($input: PaymentProfileInput!) {
          updateProfilePaymentInformation(input: $input) {
            status {
              success
            }
          }
        }
      `,
      {
        input: {
          paymentName: 'Bob Bakker',
          paymentAccountNumber: 'DE89 3704 0044 0532 0130 00',
          paymentBic: 'COBADEFFXXX',
          paymentAddress: 'Unter den Linden 1',
          paymentPostalCode: '10117',
          paymentCity: 'Berlin',
          paymentCountryCode: 'DE',
          phoneNumber: '+49 30 1234567',
        },
      },
      bob,
    );
    expect(profile.data?.updateProfilePaymentInformation.status.success).toBe(true);
    const requested = await graphql(
      platform.gateway.url,
      'mutation { payoutRequest(input: { amount: 1200 }) { status { success } payoutRequest { id } } }',
      {},
      bob,
    );
    const payoutId = requested.data?.payoutRequest.payoutRequest.id;
    expect((await walletOf(bob)).wallet).toEqual({
      availableAmount: 300,
      freezeAmount: 1200,
      openPayoutAmount: 1200,
    });

    const notStaff = await graphql(
      platform.gateway.url,
      '{ paginatedListOfPayoutRequests { status { identifier } } }',
      {},
      bob,
    );
    expect(notStaff.data?.paginatedListOfPayoutRequests.status.identifier).toBe('access_denied');
    const exported = await graphql(
      platform.gateway.url,
      'mutation { exportPayoutRequests { status { success } payoutCount totalAmount xml } }',
      {},
      moderator,
    );
    expect(exported.data?.exportPayoutRequests).toMatchObject({
      status: { success: true },
      payoutCount: 1,
      totalAmount: 1200,
    });
    expect(exported.data?.exportPayoutRequests.xml).toContain(
      '<IBAN>DE89370400440532013000</IBAN>',
    );

    const completed = await graphql(
      platform.gateway.url,
      'mutation($id: ID!) { setPayoutRequestAsCompleted(id: $id) { status { success identifier } } }',
      { id: payoutId },
      moderator,
    );
    expect(completed.data?.setPayoutRequestAsCompleted.status.success).toBe(true);
    expect((await walletOf(bob)).wallet).toEqual({
      availableAmount: 300,
      freezeAmount: 0,
      openPayoutAmount: 0,
    });
    const totals = await graphql(
      platform.gateway.url,
      '{ totalMoneyInCirculation { totals { walletSum totalBalance totalMoneyTopUps totalMoneyPayouts } } }',
      {},
      moderator,
    );
    expect(totals.data?.totalMoneyInCirculation.totals).toEqual({
      walletSum: 800,
      totalBalance: 0,
      totalMoneyTopUps: 2000,
      totalMoneyPayouts: 1200,
    });
  });

  it('shows a wallet to its owner only', async () => {
    const anonymous = await graphql(platform.gateway.url, WALLET);
    expect(anonymous.data?.getWallet.status.identifier).toBe('unauthorized');
  });
});
