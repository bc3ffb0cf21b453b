import { randomUUID } from 'node:crypto';
import { deleteTopics, graphql, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { balances, expectLedgerBalanced, startWallet, userWithBalance } from './support.ts';

/**
 * Payout states (ADR 0016): open -> exported -> done, open or exported -> cancelled. Every move
 * happens once, however many staff click at the same moment.
 */
const UPDATE_PROFILE = `mutation($input: PaymentProfileInput!) { updateProfilePaymentInformation(input: $input) {
  status { success identifier } } }`;
const REQUEST = `mutation($amount: Int!) { payoutRequest(input: { amount: $amount }) {
  status { success identifier } payoutRequest { id status } } }`;
const EXPORT = `mutation($input: ExportPayoutRequestsInput) { exportPayoutRequests(input: $input) {
  status { success identifier message } xml payoutCount totalAmount } }`;
const COMPLETE = `mutation($id: ID!) { setPayoutRequestAsCompleted(id: $id) {
  status { success identifier message } payoutRequest { id status } } }`;
const CANCEL = `mutation($id: ID!, $reason: String!) { cancelPayoutRequest(id: $id, reason: $reason) {
  status { success identifier message } payoutRequest { id status cancelledAt cancelReason } } }`;
const LIST = `query($status: String) { paginatedListOfPayoutRequests(status: $status, itemsPerPage: 100) {
  status { success identifier } items { id status } pagination { totalCount } } }`;
const WALLET = '{ getWallet { wallet { availableAmount freezeAmount openPayoutAmount } } }';

const STAFF = { id: randomUUID(), roles: ['moderator' as const] };
const ADMIN = { id: randomUUID(), roles: ['admin' as const] };

const profile = {
  paymentName: 'Jan Jansen',
  paymentAccountNumber: 'NL91ABNA0417164300',
  paymentBic: 'ABNANL2A',
  paymentAddress: 'Keizersgracht 1',
  paymentPostalCode: '1015 CJ',
  paymentCity: 'Amsterdam',
  paymentCountryCode: 'NL',
  phoneNumber: '+31 6 12345678',
};

/** The payouts a SEPA file asks the bank to pay: their end-to-end ids (payout ids without dashes). */
const paymentsIn = (xml: string) =>
  [...xml.matchAll(/<EndToEndId>([0-9a-f]{32})<\/EndToEndId>/g)].map((match) => match[1]!);
const e2e = (id: string) => id.replaceAll('-', '');

describe('payout states: one file per payout, completion after export, staff cancellation', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: Awaited<ReturnType<typeof startWallet>>;

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix);
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });
  afterEach(async () => {
    await expectLedgerBalanced(wallet.app.db);
  });

  async function userWithProfile(cents: number) {
    const user = await userWithBalance(wallet.app, cents);
    const saved = await graphql(wallet.url, UPDATE_PROFILE, { input: profile }, { id: user });
    expect(saved.data?.updateProfilePaymentInformation.status.success).toBe(true);
    return user;
  }
  async function payout(user: string, amount: number): Promise<string> {
    const result = await graphql(wallet.url, REQUEST, { amount }, { id: user });
    expect(result.data?.payoutRequest.status.success).toBe(true);
    return result.data!.payoutRequest.payoutRequest.id;
  }
  const exportAll = async () =>
    (await graphql(wallet.url, EXPORT, {}, STAFF)).data!.exportPayoutRequests;
  const walletOf = async (user: string) =>
    (await graphql(wallet.url, WALLET, {}, { id: user })).data!.getWallet.wallet;

  it('puts each payout into one file only, however many exports run at once', async () => {
    for (let round = 0; round < 3; round += 1) {
      const ids: string[] = [];
      for (let i = 0; i < 4; i += 1) ids.push(await payout(await userWithProfile(5_000), 1_000));
      const files = await Promise.all([1, 2, 3, 4].map(() => exportAll()));
      const made = files.filter((file) => file.status.success);
      const paid = made.flatMap((file) => paymentsIn(file.xml));
      // Every payout in exactly one file: no bank is asked to pay one twice.
      expect(paid.sort()).toEqual(ids.map(e2e).sort());
      expect(made.reduce((sum, file) => sum + file.payoutCount, 0)).toBe(4);
      for (const file of files.filter((f) => !f.status.success)) {
        expect(file.status.identifier).toBe('not_found');
      }
    }
    const exported = await graphql(wallet.url, LIST, { status: 'exported' }, STAFF);
    expect(exported.data?.paginatedListOfPayoutRequests.pagination.totalCount).toBe(12);
    const ids = await wallet.app.db.payoutRequest.findMany({ select: { exportedAt: true } });
    for (const { exportedAt } of ids) {
      expect(Math.abs(exportedAt!.getTime() - Date.now())).toBeLessThan(120_000);
    }
    const open = await graphql(wallet.url, LIST, { status: 'open' }, STAFF);
    expect(open.data?.paginatedListOfPayoutRequests.pagination.totalCount).toBe(0);
  });

  it('completes only a payout that is in a SEPA file', async () => {
    const user = await userWithProfile(5_000);
    const id = await payout(user, 2_000);
    const early = await graphql(wallet.url, COMPLETE, { id }, STAFF);
    expect(early.data?.setPayoutRequestAsCompleted.status).toMatchObject({
      success: false,
      identifier: 'invalid_status_change',
    });
    expect(await balances(wallet.app, user)).toEqual({ available: 3_000, frozen: 2_000 });
    expect((await exportAll()).payoutCount).toBe(1);
    const done = await graphql(wallet.url, COMPLETE, { id }, STAFF);
    expect(done.data?.setPayoutRequestAsCompleted.payoutRequest).toEqual({ id, status: 'done' });
    expect(await balances(wallet.app, user)).toEqual({ available: 3_000, frozen: 0 });
  });

  it('keeps an exported payout as open money of the user until it is done', async () => {
    const user = await userWithProfile(5_000);
    await payout(user, 1_500);
    await exportAll();
    expect(await walletOf(user)).toEqual({
      availableAmount: 3_500,
      freezeAmount: 1_500,
      openPayoutAmount: 1_500,
    });
  });

  it('lets staff only cancel a payout, with a reason', async () => {
    const user = await userWithProfile(5_000);
    const id = await payout(user, 2_000);
    const byUser = await graphql(wallet.url, CANCEL, { id, reason: 'mine' }, { id: user });
    expect(byUser.data?.cancelPayoutRequest.status.identifier).toBe('access_denied');
    const anonymous = await graphql(wallet.url, CANCEL, { id, reason: 'x' });
    expect(anonymous.data?.cancelPayoutRequest.status.success).toBe(false);
    const noReason = await graphql(wallet.url, CANCEL, { id, reason: '   ' }, STAFF);
    expect(noReason.data?.cancelPayoutRequest.status.identifier).toBe('invalid_input');
    const tooLong = await graphql(wallet.url, CANCEL, { id, reason: 'x'.repeat(801) }, STAFF);
    expect(tooLong.data?.cancelPayoutRequest.status.identifier).toBe('invalid_input');
    const unknown = await graphql(wallet.url, CANCEL, { id: randomUUID(), reason: 'x' }, STAFF);
    expect(unknown.data?.cancelPayoutRequest.status.identifier).toBe('not_found');
    expect(await balances(wallet.app, user)).toEqual({ available: 3_000, frozen: 2_000 });
    const byAdmin = await graphql(wallet.url, CANCEL, { id, reason: 'Asked by phone' }, ADMIN);
    expect(byAdmin.data?.cancelPayoutRequest.status.success).toBe(true);
  });

  it('cancels an open payout once: the money back to available, however many clicks', async () => {
    const user = await userWithProfile(45_000);
    const id = await payout(user, 40_000);
    const answers = await Promise.all(
      [STAFF, STAFF, ADMIN].map((staff) =>
        graphql(wallet.url, CANCEL, { id, reason: ' Wrong account holder ' }, staff),
      ),
    );
    const outcomes = answers.map((a) => a.data?.cancelPayoutRequest.status.identifier).sort();
    expect(outcomes).toEqual([
      'ok',
      'payout_request_no_longer_open',
      'payout_request_no_longer_open',
    ]);
    const ok = answers.find((a) => a.data?.cancelPayoutRequest.status.success)!;
    expect(ok.data?.cancelPayoutRequest.payoutRequest).toMatchObject({
      id,
      status: 'cancelled',
      cancelledAt: expect.any(String),
      cancelReason: 'Wrong account holder',
    });
    expect(await walletOf(user)).toEqual({
      availableAmount: 45_000,
      freezeAmount: 0,
      openPayoutAmount: 0,
    });
    const moves = await wallet.app.db.ledgerTransfer.findMany({
      where: { idempotencyKey: { endsWith: id } },
      select: { kind: true },
    });
    expect(moves.map((m) => m.kind).sort()).toEqual(['payout_cancel', 'payout_request']);
    // Cancelled is final: no export, no completion, no second cancellation.
    expect((await exportAll()).status.identifier).toBe('not_found');
    const complete = await graphql(wallet.url, COMPLETE, { id }, STAFF);
    expect(complete.data?.setPayoutRequestAsCompleted.status.identifier).toBe(
      'payout_request_no_longer_open',
    );
    const listed = await graphql(wallet.url, LIST, { status: 'cancelled' }, STAFF);
    expect(listed.data?.paginatedListOfPayoutRequests.items).toContainEqual({
      id,
      status: 'cancelled',
    });
    // The returned money no longer counts towards the monthly withdrawal limit (50 000 in tests).
    const second = await payout(user, 40_000);
    await graphql(wallet.url, CANCEL, { id: second, reason: 'test over' }, STAFF);
    expect(await balances(wallet.app, user)).toEqual({ available: 45_000, frozen: 0 });
  });

  it('cancels an exported payout the bank returned; a done one stays done', async () => {
    const user = await userWithProfile(6_000);
    const returned = await payout(user, 2_000);
    const paid = await payout(user, 3_000);
    expect((await exportAll()).payoutCount).toBe(2);
    expect(
      (await graphql(wallet.url, COMPLETE, { id: paid }, STAFF)).data?.setPayoutRequestAsCompleted
        .status.success,
    ).toBe(true);
    const cancelled = await graphql(wallet.url, CANCEL, { id: returned, reason: 'R01' }, STAFF);
    expect(cancelled.data?.cancelPayoutRequest.status.success).toBe(true);
    const late = await graphql(wallet.url, CANCEL, { id: paid, reason: 'too late' }, STAFF);
    expect(late.data?.cancelPayoutRequest.status.identifier).toBe('payout_request_no_longer_open');
    expect(await balances(wallet.app, user)).toEqual({ available: 3_000, frozen: 0 });
    // A lost file is made again without the cancelled payout.
    const again = await graphql(wallet.url, EXPORT, { input: { includeExported: true } }, STAFF);
    expect(paymentsIn(again.data?.exportPayoutRequests.xml ?? '')).not.toContain(e2e(returned));
  });

  it('lets no staff member complete or cancel their own payout request', async () => {
    const user = await userWithProfile(5_000);
    const self = { id: user, roles: ['admin' as const] };
    const id = await payout(user, 2_000);
    const refused = {
      identifier: 'access_denied',
      message: 'You cannot act on your own payout request.',
    };
    const cancel = await graphql(wallet.url, CANCEL, { id, reason: 'Mine.' }, self);
    expect(cancel.data!.cancelPayoutRequest.status).toMatchObject(refused);
    expect(paymentsIn((await exportAll()).xml)).toContain(e2e(id));
    const complete = await graphql(wallet.url, COMPLETE, { id }, self);
    expect(complete.data!.setPayoutRequestAsCompleted.status).toMatchObject(refused);
    expect(await walletOf(user)).toMatchObject({ availableAmount: 3_000, freezeAmount: 2_000 });
    // A colleague may.
    const done = await graphql(wallet.url, COMPLETE, { id }, STAFF);
    expect(done.data!.setPayoutRequestAsCompleted.payoutRequest.status).toBe('done');
  });

  it('lets one of a racing cancel and completion win, never both', async () => {
    for (let round = 0; round < 4; round += 1) {
      const user = await userWithProfile(4_000);
      const id = await payout(user, 4_000);
      await exportAll();
      const [complete, cancel] = await Promise.all([
        graphql(wallet.url, COMPLETE, { id }, STAFF),
        graphql(wallet.url, CANCEL, { id, reason: 'returned' }, ADMIN),
      ]);
      const won = [
        complete.data?.setPayoutRequestAsCompleted.status.success,
        cancel.data?.cancelPayoutRequest.status.success,
      ];
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await balances(wallet.app, user)).toEqual(
        won[0] ? { available: 0, frozen: 0 } : { available: 4_000, frozen: 0 },
      );
    }
  });
});
