import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { deleteTopics, graphql, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { PAIN_SCHEMAS, type PainVersion } from '../src/domain/sepa/index.ts';
import { balances, startWallet, userWithBalance } from './support.ts';

const PROFILE_FIELDS = `paymentName paymentAccountNumber paymentBic paymentAddress paymentPostalCode
  paymentCity paymentCountryCode phoneNumber`;
const GET_PROFILE = `{ getProfilePaymentInformation { status { success identifier }
  paymentProfile { ${PROFILE_FIELDS} } wallet { availableAmount openPayoutAmount } } }`;
const UPDATE_PROFILE = `mutation($input: PaymentProfileInput!) { updateProfilePaymentInformation(input: $input) {
  status { success identifier message } paymentProfile { ${PROFILE_FIELDS} } } }`;
const REQUEST = `mutation($amount: Int!) { payoutRequest(input: { amount: $amount }) {
  status { success identifier } payoutRequest { id amount status accountNumber name }
  wallet { availableAmount freezeAmount openPayoutAmount } } }`;
const LIST = `query($page: Int, $itemsPerPage: Int, $status: String) {
  paginatedListOfPayoutRequests(page: $page, itemsPerPage: $itemsPerPage, status: $status) {
  status { success identifier } items { id userId user { id } amount status exportedAt } pagination { currentPage totalPages totalCount } } }`;
const COMPLETE = `mutation($id: ID!) { setPayoutRequestAsCompleted(id: $id) {
  status { success identifier } payoutRequest { id status completedAt } } }`;
const EXPORT = `mutation($input: ExportPayoutRequestsInput) { exportPayoutRequests(input: $input) {
  status { success identifier message } fileName xml payoutCount totalAmount } }`;
const OPEN_AMOUNT = '{ getOpenPayoutAmount { status { success identifier } openPayoutAmount } }';
const TOTALS = `{ totalMoneyInCirculation { status { success identifier }
  totals { walletSum totalBalance totalMoneyTopUps totalMoneyPayouts } } }`;

const STAFF = { id: randomUUID(), roles: ['moderator' as const] };

const validProfile = {
  paymentName: 'Zoë de Vries',
  paymentAccountNumber: 'nl91 abna 0417 1643 00',
  paymentBic: 'abnanl2a',
  paymentAddress: 'Keizersgracht 1',
  paymentPostalCode: '1015 CJ',
  paymentCity: 'Amsterdam',
  paymentCountryCode: 'nl',
  phoneNumber: '+31 6 12345678',
};

async function validates(xml: string, version: PainVersion) {
  const result = await validateXML({
    xml: [{ fileName: 'payouts.xml', contents: xml }],
    schema: [await readFile(PAIN_SCHEMAS[version], 'utf8')],
  });
  expect(result.valid, result.rawOutput).toBe(true);
}

describe('payouts: payment profile, requests, SEPA export, completion', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: Awaited<ReturnType<typeof startWallet>>;
  let user: string;

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix);
    user = await userWithBalance(wallet.app, 80_000);
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });

  const as = (id: string) => ({ id });
  const request = async (amount: number, who = user) =>
    (await graphql(wallet.url, REQUEST, { amount }, as(who))).data!.payoutRequest;

  it('has no payment details at first, and no payout without them', async () => {
    const result = await graphql(wallet.url, GET_PROFILE, {}, as(user));
    expect(result.data?.getProfilePaymentInformation).toEqual({
      status: { success: true, identifier: 'ok' },
      paymentProfile: Object.fromEntries(PROFILE_FIELDS.split(/\s+/).map((f) => [f, null])),
      wallet: { availableAmount: 80_000, openPayoutAmount: 0 },
    });
    expect((await request(5_000)).status.identifier).toBe('payout_request_details_missing');
  });

  it.each([
    [{ paymentAccountNumber: 'NL91ABNA0417164301' }, 'invalid_input', /check digits/],
    [{ paymentAccountNumber: 'US64SVBKUS6S3300958879' }, 'invalid_input', /Europe only/],
    [{ paymentBic: 'DEUTDEFF' }, 'invalid_input', /same bank/],
    [{ paymentCountryCode: 'US' }, 'invalid_input', /European/],
    [{ phoneNumber: '12' }, 'invalid_phone_number', /./],
    [{ paymentName: '' }, 'invalid_input', /./],
    [{ paymentName: '🙂🙂' }, 'invalid_input', /letters a bank can read/],
  ])('refuses bad details %j with %s and saves nothing', async (change, identifier, message) => {
    const result = await graphql(
      wallet.url,
      UPDATE_PROFILE,
      { input: { ...validProfile, ...change } },
      as(user),
    );
    const outcome = result.data?.updateProfilePaymentInformation;
    expect(outcome.status.identifier).toBe(identifier);
    expect(outcome.status.message).toMatch(message);
    expect(await wallet.app.db.paymentProfile.count({ where: { userId: user } })).toBe(0);
  });

  it('saves valid details normalised', async () => {
    const result = await graphql(wallet.url, UPDATE_PROFILE, { input: validProfile }, as(user));
    expect(result.data?.updateProfilePaymentInformation.paymentProfile).toEqual({
      ...validProfile,
      paymentAccountNumber: 'NL91ABNA0417164300',
      paymentBic: 'ABNANL2A',
      paymentCountryCode: 'NL',
    });
  });

  it('resolves User.paymentProfile through federation for the user and staff only (verify users)', async () => {
    const entities = (who?: {
      id: string;
      roles?: ('user' | 'referee' | 'moderator' | 'admin')[];
    }) =>
      graphql(
        wallet.url,
        `
          query ($r: [_Any!]!) {
            _entities(representations: $r) {
              ... on User {
                id
                paymentProfile {
                  paymentName
                  paymentAccountNumber
                }
              }
            }
          }
        `,
        { r: [{ __typename: 'User', id: user }] },
        who,
      );
    const seen = { paymentName: 'Zoë de Vries', paymentAccountNumber: 'NL91ABNA0417164300' };
    for (const who of [STAFF, { id: randomUUID(), roles: ['admin' as const] }, as(user)]) {
      expect((await entities(who)).data?._entities).toEqual([{ id: user, paymentProfile: seen }]);
    }
    for (const who of [
      undefined,
      { id: randomUUID() },
      { id: randomUUID(), roles: ['user' as const, 'referee' as const] },
    ]) {
      expect((await entities(who)).data?._entities).toEqual([{ id: user, paymentProfile: null }]);
    }
  });

  it('refuses a payout under the minimum, over the balance, over the monthly limit', async () => {
    expect((await request(999)).status.identifier).toBe('payout_request_amount_too_low');
    const poor = await userWithBalance(wallet.app, 1_500);
    await graphql(wallet.url, UPDATE_PROFILE, { input: validProfile }, as(poor));
    expect((await request(2_000, poor)).status.identifier).toBe('insufficient_funds');
    expect(await balances(wallet.app, poor)).toEqual({ available: 1_500, frozen: 0 });
    expect(await wallet.app.db.payoutRequest.count({ where: { userId: poor } })).toBe(0);
    expect((await request(50_001)).status.identifier).toBe('limit_exceeded_this_month');
  });

  it('freezes the amount of a payout request and shows it as open', async () => {
    const first = await request(30_000);
    expect(first).toMatchObject({
      status: { success: true, identifier: 'ok' },
      payoutRequest: { amount: 30_000, status: 'open', accountNumber: 'NL91ABNA0417164300' },
      wallet: { availableAmount: 50_000, freezeAmount: 30_000, openPayoutAmount: 30_000 },
    });
    expect((await request(15_000)).status.success).toBe(true);
    // 45 000 asked this month: 5 001 more would pass the 50 000 limit.
    expect((await request(5_001)).status.identifier).toBe('limit_exceeded_this_month');
    const open = await graphql(wallet.url, OPEN_AMOUNT, {}, as(user));
    expect(open.data?.getOpenPayoutAmount).toEqual({
      status: { success: true, identifier: 'ok' },
      openPayoutAmount: 45_000,
    });
    const anonymous = await graphql(wallet.url, OPEN_AMOUNT);
    expect(anonymous.data?.getOpenPayoutAmount.status.identifier).toBe(
      'get_open_payout_amount_user_not_logged_in',
    );
  });

  it('lists payout requests to staff only, filtered and paginated', async () => {
    const refused = await graphql(wallet.url, LIST, {}, as(user));
    expect(refused.data?.paginatedListOfPayoutRequests.status.identifier).toBe('access_denied');
    const page = await graphql(
      wallet.url,
      LIST,
      { page: 2, itemsPerPage: 1, status: 'open' },
      STAFF,
    );
    expect(page.data?.paginatedListOfPayoutRequests).toMatchObject({
      status: { success: true },
      items: [
        { userId: user, user: { id: user }, amount: 15_000, status: 'open', exportedAt: null },
      ],
      pagination: { currentPage: 2, totalPages: 2, totalCount: 2 },
    });
    const done = await graphql(wallet.url, LIST, { status: 'done' }, STAFF);
    expect(done.data?.paginatedListOfPayoutRequests.pagination.totalCount).toBe(0);
  });

  it('exports open payouts as SEPA files that validate, each payout in one file only', async () => {
    const refused = await graphql(wallet.url, EXPORT, {}, as(user));
    expect(refused.data?.exportPayoutRequests.status.identifier).toBe('access_denied');

    const file = (await graphql(wallet.url, EXPORT, {}, STAFF)).data?.exportPayoutRequests;
    expect(file).toMatchObject({
      status: { success: true },
      fileName: expect.stringMatching(
        /^PAYOUTS-\d{4}-\d{2}-\d{2}-[0-9A-F]{8}\.pain\.001\.001\.09\.xml$/,
      ),
      payoutCount: 2,
      totalAmount: 45_000,
    });
    expect(file.xml).toContain('<CtrlSum>450.00</CtrlSum>');
    expect(file.xml).toContain('<Nm>Zoe de Vries</Nm>');
    await validates(file.xml, 'pain.001.001.09');

    const again = (await graphql(wallet.url, EXPORT, {}, STAFF)).data?.exportPayoutRequests;
    expect(again.status).toEqual({
      success: false,
      identifier: 'not_found',
      message: 'There are no open payout requests to export.',
    });
    const old = await graphql(
      wallet.url,
      EXPORT,
      { input: { format: 'pain.001.001.03', includeExported: true } },
      STAFF,
    );
    expect(old.data?.exportPayoutRequests.payoutCount).toBe(2);
    await validates(old.data?.exportPayoutRequests.xml, 'pain.001.001.03');
    const bad = await graphql(wallet.url, EXPORT, { input: { format: 'pain.001.001.02' } }, STAFF);
    expect(bad.data?.exportPayoutRequests.status.identifier).toBe('invalid_input');
  });

  it('completes a payout once: the money leaves, a second call is no longer open', async () => {
    const { items } = (await graphql(wallet.url, LIST, { status: 'exported' }, STAFF)).data!
      .paginatedListOfPayoutRequests;
    const id = items[0].id as string;
    const byUser = await graphql(wallet.url, COMPLETE, { id }, as(user));
    expect(byUser.data?.setPayoutRequestAsCompleted.status.identifier).toBe('access_denied');

    const results = await Promise.all(
      [1, 2, 3].map(() => graphql(wallet.url, COMPLETE, { id }, STAFF)),
    );
    const outcomes = results.map((r) => r.data?.setPayoutRequestAsCompleted.status.identifier);
    expect(outcomes.sort()).toEqual([
      'ok',
      'payout_request_no_longer_open',
      'payout_request_no_longer_open',
    ]);
    expect(await balances(wallet.app, user)).toEqual({ available: 35_000, frozen: 15_000 });
    const unknown = await graphql(wallet.url, COMPLETE, { id: randomUUID() }, STAFF);
    expect(unknown.data?.setPayoutRequestAsCompleted.status.identifier).toBe('not_found');

    const totals = await graphql(wallet.url, TOTALS, {}, STAFF);
    expect(totals.data?.totalMoneyInCirculation.totals).toEqual({
      walletSum: 80_000 + 1_500 - 30_000,
      totalBalance: 0,
      totalMoneyTopUps: 81_500,
      totalMoneyPayouts: 30_000,
    });
  });
  it('answers a repeated request with the same payout: one per idempotency key', async () => {
    const twin = await userWithBalance(wallet.app, 5_000);
    await graphql(wallet.url, UPDATE_PROFILE, { input: validProfile }, as(twin));
    const key = `form-${randomUUID()}`;
    const QUERY = `mutation($key: String) { payoutRequest(input: { amount: 2000, idempotencyKey: $key }) {
      status { success } payoutRequest { id } } }`;
    const answers = await Promise.all(
      [1, 2, 3].map(() => graphql(wallet.url, QUERY, { key }, as(twin))),
    );
    const ids = new Set(answers.map((a) => a.data?.payoutRequest.payoutRequest.id));
    expect(ids.size).toBe(1);
    expect(await balances(wallet.app, twin)).toEqual({ available: 3_000, frozen: 2_000 });
  });
});

describe('the BIC: optional for an IBAN from the EEA, required outside it (issue 22, point 14)', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: Awaited<ReturnType<typeof startWallet>>;

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix);
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });

  const save = async (who: string, change: Record<string, unknown>) =>
    (
      await graphql(
        wallet.url,
        UPDATE_PROFILE,
        { input: { ...validProfile, ...change } },
        { id: who },
      )
    ).data?.updateProfilePaymentInformation;

  it('saves a Dutch IBAN without a BIC (left out or empty), and the payout goes into a valid SEPA file without an agent', async () => {
    const user = await userWithBalance(wallet.app, 20_000);
    const { paymentBic: _left, ...withoutBic } = validProfile;
    const saved = (await graphql(wallet.url, UPDATE_PROFILE, { input: withoutBic }, { id: user }))
      .data?.updateProfilePaymentInformation;
    expect(saved.status).toMatchObject({ success: true });
    expect(saved.paymentProfile).toMatchObject({
      paymentAccountNumber: 'NL91ABNA0417164300',
      paymentBic: null,
    });
    expect((await save(user, { paymentBic: '  ' })).paymentProfile.paymentBic).toBeNull();

    const payout = (await graphql(wallet.url, REQUEST, { amount: 5_000 }, { id: user })).data!
      .payoutRequest;
    expect(payout.status).toMatchObject({ success: true });
    const file = (await graphql(wallet.url, EXPORT, {}, STAFF)).data?.exportPayoutRequests;
    expect(file.status).toMatchObject({ success: true });
    const id = (payout.payoutRequest.id as string).replaceAll('-', '');
    const transaction = file.xml.slice(file.xml.indexOf(id));
    expect(transaction.slice(0, transaction.indexOf('</CdtTrfTxInf>'))).not.toContain('CdtrAgt');
    await validates(file.xml, 'pain.001.001.09');
  });

  it('refuses a Swiss IBAN without a BIC, saying why, and takes it with one', async () => {
    const user = randomUUID();
    const swiss = {
      paymentAccountNumber: 'CH93 0076 2011 6238 5295 7',
      paymentCountryCode: 'CH',
      paymentCity: 'Zürich',
    };
    const refused = await save(user, { ...swiss, paymentBic: '' });
    expect(refused.status).toMatchObject({ success: false, identifier: 'invalid_input' });
    expect(refused.status.message).toMatch(/BIC is needed for an IBAN from CH/);
    expect(await wallet.app.db.paymentProfile.count({ where: { userId: user } })).toBe(0);
    const taken = await save(user, { ...swiss, paymentBic: 'UBSWCHZH80A' });
    expect(taken.paymentProfile).toMatchObject({ paymentBic: 'UBSWCHZH80A' });
  });
});
