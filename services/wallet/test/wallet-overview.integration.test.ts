import { randomUUID } from 'node:crypto';
import { deleteTopics, graphql, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOfMonth } from '../src/domain/limits.ts';
import { startWallet, userWithBalance } from './support.ts';

/**
 * getWallet's figures (read in one statement since docs/adr/0088): the balances, the payouts not
 * paid yet, and this month's deposits and withdrawals as the monthly limits count them.
 */
const WALLET = `{ getWallet { status { success identifier } wallet {
  availableAmount freezeAmount totalAmount openPayoutAmount currency
  limits { minimumPayout minimumTopUp monthlyDepositLimit monthlyWithdrawalLimit depositedThisMonth withdrawnThisMonth } } } }`;

describe('getWallet', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: Awaited<ReturnType<typeof startWallet>>;

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix);
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });

  const read = async (userId: string) =>
    (await graphql(wallet.url, WALLET, {}, { id: userId })).data!.getWallet;

  it('shows the balances, the open payouts and what this month counts towards each limit', async () => {
    const userId = await userWithBalance(wallet.app, 90_000);
    // A second user's rows must not count.
    const other = await userWithBalance(wallet.app, 5_000);
    const thisMonth = new Date(startOfMonth(new Date()).getTime() + 1_000);
    const lastMonth = new Date(startOfMonth(new Date()).getTime() - 1_000);
    const db = wallet.app.db;
    const topUp = (
      user: string,
      amountCents: bigint,
      status: 'open' | 'paid' | 'failed',
      createdAt: Date,
    ) =>
      db.topUpPayment.create({
        data: {
          userId: user,
          amountCents,
          provider: 'sandbox',
          status,
          originUrl: '/wallet',
          createdAt,
        },
      });
    await topUp(userId, 1_000n, 'open', thisMonth);
    await topUp(userId, 2_000n, 'paid', thisMonth);
    await topUp(userId, 4_000n, 'failed', thisMonth);
    await topUp(userId, 8_000n, 'paid', lastMonth);
    await topUp(other, 16_000n, 'paid', thisMonth);
    const payout = (
      user: string,
      amountCents: bigint,
      status: 'open' | 'exported' | 'done' | 'cancelled',
      createdAt: Date,
    ) =>
      db.payoutRequest.create({
        data: {
          userId: user,
          amountCents,
          status,
          createdAt,
          name: 'Zoë de Vries',
          iban: 'NL91ABNA0417164300',
          bic: 'ABNANL2A',
          address: 'Keizersgracht 1',
          postalCode: '1015 CJ',
          city: 'Amsterdam',
          countryCode: 'NL',
        },
      });
    await payout(userId, 100n, 'open', thisMonth);
    await payout(userId, 200n, 'exported', thisMonth);
    await payout(userId, 400n, 'done', thisMonth);
    await payout(userId, 800n, 'cancelled', thisMonth);
    await payout(userId, 1_600n, 'open', lastMonth);
    await payout(other, 3_200n, 'open', thisMonth);
    // Money in escrow: frozen, part of the total.
    const frozen = await db.ledgerAccount.findUniqueOrThrow({
      where: { userId_kind: { userId, kind: 'user_frozen' } },
    });
    await db.ledgerAccount.update({ where: { id: frozen.id }, data: { balance: 7_000n } });

    const { limits } = wallet.config;
    expect(await read(userId)).toEqual({
      status: { success: true, identifier: 'ok' },
      wallet: {
        availableAmount: 90_000,
        freezeAmount: 7_000,
        totalAmount: 97_000,
        // open and exported, whichever month
        openPayoutAmount: 100 + 200 + 1_600,
        currency: 'EUR',
        limits: {
          minimumPayout: limits.minimumPayoutCents,
          minimumTopUp: limits.minimumTopUpCents,
          monthlyDepositLimit: limits.monthlyDepositLimitCents,
          monthlyWithdrawalLimit: limits.monthlyWithdrawalLimitCents,
          // open and paid top-ups of this month
          depositedThisMonth: 1_000 + 2_000,
          // this month's payouts but the cancelled one
          withdrawnThisMonth: 100 + 200 + 400,
        },
      },
    });
  });

  it('shows zeros for a new wallet, and wallet_not_found without one', async () => {
    const userId = await userWithBalance(wallet.app, 0);
    expect((await read(userId)).wallet).toMatchObject({
      availableAmount: 0,
      freezeAmount: 0,
      totalAmount: 0,
      openPayoutAmount: 0,
      limits: { depositedThisMonth: 0, withdrawnThisMonth: 0 },
    });
    expect((await read(randomUUID())).status).toEqual({
      success: false,
      identifier: 'wallet_not_found',
    });
  });
});
