import { randomUUID } from 'node:crypto';
import { deleteTopics, graphql, tokenFor, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWallet, userWithBalance } from './support.ts';

/**
 * Issue 22, points 1 and 6: a payout held after an IBAN change says why, the SEPA export says
 * what it left out and why, and every staff action on a payout (export, release, completion,
 * cancellation) is published for moderation's audit log in the transaction that makes it.
 */
const REQUEST = `mutation($amount: Int!) { payoutRequest(input: { amount: $amount }) {
  status { success identifier } payoutRequest { id heldForReview ibanChangedAt } } }`;
const EXPORT = `mutation { exportPayoutRequests {
  status { success identifier message } fileName payoutCount totalAmount heldForReviewCount heldForReviewAmount } }`;
const RELEASE = `mutation($id: ID!) { releasePayoutRequest(id: $id) { status { success identifier } } }`;
const COMPLETE = `mutation($id: ID!) { setPayoutRequestAsCompleted(id: $id) { status { success identifier } } }`;
const CANCEL = `mutation($id: ID!, $reason: String!) { cancelPayoutRequest(id: $id, reason: $reason) {
  status { success identifier } } }`;
const LIST = `{ paginatedListOfPayoutRequests(status: "open", itemsPerPage: 100) {
  items { id heldForReview ibanChangedAt } } }`;

describe('wallet: held payouts explained, staff payout actions published for the audit log', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: Awaited<ReturnType<typeof startWallet>>;
  const staff = { id: randomUUID(), roles: ['moderator' as const] };

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix);
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });

  /** A user with money and bank details whose IBAN was replaced `changedAt`. */
  async function userWithChangedIban(changedAt: Date | null) {
    const user = await userWithBalance(wallet.app, 50_000);
    await wallet.app.db.paymentProfile.create({
      data: {
        userId: user,
        name: 'Zoë de Vries',
        iban: 'NL91ABNA0417164300',
        bic: 'ABNANL2A',
        address: 'Keizersgracht 1',
        postalCode: '1015 CJ',
        city: 'Amsterdam',
        countryCode: 'NL',
        phoneNumber: '+31 6 12345678',
        ibanChangedAt: changedAt,
      },
    });
    return { id: user, token: await tokenFor({ id: user }) };
  }
  const ask = async (who: { token: string }, amount: number) => {
    const { data, errors } = await graphql(wallet.url, REQUEST, { amount }, { token: who.token });
    expect(errors).toBeUndefined();
    return data!.payoutRequest.payoutRequest as {
      id: string;
      heldForReview: boolean;
      ibanChangedAt: string | null;
    };
  };
  const exportFile = async () => {
    const { data, errors } = await graphql(wallet.url, EXPORT, {}, staff);
    expect(errors).toBeUndefined();
    return data!.exportPayoutRequests;
  };
  /** What wallet wrote for moderation about payouts, in its outbox. */
  const published = async (type: string) =>
    (await wallet.app.db.outboxEvent.findMany({ where: { type }, orderBy: { seq: 'asc' } })).map(
      (row) => {
        const event = row.payload as { actorId: string; data: Record<string, unknown> };
        return { actorId: event.actorId, ...event.data };
      },
    );

  it('says why a payout is held: the time of the bank account change', async () => {
    const changedAt = new Date(Date.now() - 60 * 60 * 1000);
    const held = await ask(await userWithChangedIban(changedAt), 2_000);
    expect(held).toMatchObject({ heldForReview: true, ibanChangedAt: changedAt.toISOString() });
    const listed = (await graphql(wallet.url, LIST, {}, staff)).data!.paginatedListOfPayoutRequests
      .items as { id: string; ibanChangedAt: string }[];
    expect(listed.find((item) => item.id === held.id)?.ibanChangedAt).toBe(changedAt.toISOString());
    const plain = await ask(await userWithChangedIban(null), 1_000);
    expect(plain).toMatchObject({ heldForReview: false, ibanChangedAt: null });
  });

  it('says what an export left out and why, also when it leaves out everything', async () => {
    // Whatever other tests left open goes out; what they left held stays.
    const before = await exportFile();
    const held = await ask(await userWithChangedIban(new Date()), 3_000);
    const nothing = await exportFile();
    expect(nothing.status).toMatchObject({ success: false, identifier: 'not_found' });
    const count = before.heldForReviewCount + 1;
    expect(nothing.status.message).toBe(
      `There is nothing to export: ${count} payout requests are held for review after a change of bank account. Release them once checked.`,
    );
    expect(nothing).toMatchObject({
      heldForReviewCount: count,
      heldForReviewAmount: before.heldForReviewAmount + 3_000,
    });

    const open = await ask(await userWithChangedIban(null), 4_000);
    const file = await exportFile();
    expect(file).toMatchObject({
      status: { success: true },
      payoutCount: 1,
      totalAmount: 4_000,
      heldForReviewCount: count,
      heldForReviewAmount: before.heldForReviewAmount + 3_000,
    });
    const exported = await published('PayoutsExported');
    expect(exported.at(-1)).toMatchObject({
      actorId: staff.id,
      batch: file.fileName.split('.')[0],
      payoutIds: [open.id],
      totalCents: 4_000,
      includeExported: false,
      heldForReviewCount: count,
    });
    // Released, it goes into the next file; the release is published with its staff member.
    expect(
      (await graphql(wallet.url, RELEASE, { id: held.id }, staff)).data!.releasePayoutRequest.status
        .success,
    ).toBe(true);
    expect((await published('PayoutReleased')).at(-1)).toEqual({
      actorId: staff.id,
      payoutId: held.id,
      userId: expect.any(String),
      amountCents: 3_000,
    });
    expect(await exportFile()).toMatchObject({ payoutCount: 1, heldForReviewCount: count - 1 });
  });

  it('publishes a completion and a cancellation with the staff member and the reason', async () => {
    await exportFile();
    const user = await userWithChangedIban(null);
    const paid = await ask(user, 1_500);
    const returned = await ask(user, 2_500);
    await exportFile();
    const done = await graphql(wallet.url, COMPLETE, { id: paid.id }, staff);
    expect(done.data!.setPayoutRequestAsCompleted.status.success).toBe(true);
    const reason = 'The bank returned the transfer: account closed.';
    const cancelled = await graphql(wallet.url, CANCEL, { id: returned.id, reason }, staff);
    expect(cancelled.data!.cancelPayoutRequest.status.success).toBe(true);

    expect((await published('PayoutCompleted')).at(-1)).toEqual({
      actorId: staff.id,
      payoutId: paid.id,
      userId: user.id,
      amountCents: 1_500,
    });
    expect((await published('PayoutCancelled')).at(-1)).toEqual({
      actorId: staff.id,
      payoutId: returned.id,
      userId: user.id,
      amountCents: 2_500,
      reason,
    });
    // A refused repeat publishes nothing more.
    await graphql(wallet.url, CANCEL, { id: returned.id, reason }, staff);
    expect(await published('PayoutCancelled')).toHaveLength(1);
  });
});
