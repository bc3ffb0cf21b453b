import { randomUUID } from 'node:crypto';
import { deleteTopics, graphql, uniqueTopicPrefix, type TestService } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WalletApp } from '../src/app.ts';
import { startWallet } from './support.ts';
import { transactionRunner } from '../src/data/db.ts';
import { insertWalletOnce } from '../src/data/wallets.ts';
import { transfer } from '../src/domain/ledger.ts';

const HISTORY = `query($page: Int, $itemsPerPage: Int) { getWalletTransactions(page: $page, itemsPerPage: $itemsPerPage) {
  status { success identifier } items { kind availableChange frozenChange challengeId } pagination { currentPage totalPages totalCount } } }`;
const WALLET =
  '{ getWallet { status { success } wallet { availableAmount freezeAmount totalAmount } } }';
const TOTALS =
  '{ totalMoneyInCirculation { status { success identifier } totals { walletSum totalBalance totalMoneyTopUps totalMoneyPayouts } } }';

describe('wallet history and money totals', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: TestService<WalletApp>;
  const owner = randomUUID();
  const friend = randomUUID();
  const challengeId = randomUUID();

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix);
    const db = wallet.app.db;
    for (const user of [owner, friend])
      await transactionRunner(db)((tx) => insertWalletOnce(tx, user));
    await transfer(db, {
      idempotencyKey: 'top-up-1',
      kind: 'top_up',
      from: { platform: 'provider_clearing' },
      to: { user: owner, kind: 'user_available' },
      amountCents: 2000n,
    });
    await transfer(db, {
      idempotencyKey: `hold:${challengeId}`,
      kind: 'escrow_hold',
      from: { user: owner, kind: 'user_available' },
      to: { user: owner, kind: 'user_frozen' },
      amountCents: 500n,
      challengeId,
    });
    await transfer(db, {
      idempotencyKey: `capture:${challengeId}`,
      kind: 'escrow_capture',
      from: { user: owner, kind: 'user_frozen' },
      to: { user: friend, kind: 'user_available' },
      amountCents: 500n,
      challengeId,
    });
    await transfer(db, {
      idempotencyKey: 'payout-1',
      kind: 'payout_complete',
      from: { user: friend, kind: 'user_available' },
      to: { platform: 'payout_clearing' },
      amountCents: 200n,
    });
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });

  it("shows each movement as signed changes of the user's amounts, newest first, paginated", async () => {
    const first = await graphql(wallet.url, HISTORY, { page: 1, itemsPerPage: 2 }, { id: owner });
    expect(first.data!.getWalletTransactions).toEqual({
      status: { success: true, identifier: 'ok' },
      items: [
        { kind: 'escrow_capture', availableChange: 0, frozenChange: -500, challengeId },
        { kind: 'escrow_hold', availableChange: -500, frozenChange: 500, challengeId },
      ],
      pagination: { currentPage: 1, totalPages: 2, totalCount: 3 },
    });
    const second = await graphql(wallet.url, HISTORY, { page: 2, itemsPerPage: 2 }, { id: owner });
    expect(second.data!.getWalletTransactions.items).toEqual([
      { kind: 'top_up', availableChange: 2000, frozenChange: 0, challengeId: null },
    ]);
    const friendView = await graphql(wallet.url, HISTORY, {}, { id: friend });
    expect(
      friendView.data!.getWalletTransactions.items.map(
        (item: { availableChange: number }) => item.availableChange,
      ),
    ).toEqual([-200, 500]);
    expect((await graphql(wallet.url, WALLET, {}, { id: owner })).data!.getWallet.wallet).toEqual({
      availableAmount: 1500,
      freezeAmount: 0,
      totalAmount: 1500,
    });
    expect((await graphql(wallet.url, HISTORY)).data!.getWalletTransactions.status.identifier).toBe(
      'unauthorized',
    );
  });

  it('gives staff the totals, consistent with the wallets, and nobody else', async () => {
    const staff = await graphql(
      wallet.url,
      TOTALS,
      {},
      { id: randomUUID(), roles: ['user', 'admin'] },
    );
    expect(staff.data!.totalMoneyInCirculation.totals).toEqual({
      walletSum: 1500 + 300,
      totalBalance: 0,
      totalMoneyTopUps: 2000,
      totalMoneyPayouts: 200,
    });
    const user = await graphql(wallet.url, TOTALS, {}, { id: owner });
    expect(user.data!.totalMoneyInCirculation).toEqual({
      status: { success: false, identifier: 'access_denied' },
      totals: null,
    });
  });
});
