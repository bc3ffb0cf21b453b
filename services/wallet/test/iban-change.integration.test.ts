import { randomUUID } from 'node:crypto';
import { createTokenIssuer } from '@challenge/kit';
import {
  JWT_ISSUER,
  deleteTopics,
  graphql,
  testKeys,
  tokenFor,
  uniqueTopicPrefix,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWallet, userWithBalance } from './support.ts';

/**
 * Issue 10, point 8: replacing the payout IBAN needs a fresh re-authentication (identity's proof
 * for this session), sends a notice (PaymentAccountChanged) and makes payouts wait for staff for
 * 24 hours.
 */
const UPDATE_PROFILE = `mutation($input: PaymentProfileInput!) { updateProfilePaymentInformation(input: $input) {
  status { success identifier message } paymentProfile { paymentAccountNumber paymentCity } } }`;
const REQUEST = `mutation($amount: Int!) { payoutRequest(input: { amount: $amount }) {
  status { success identifier } payoutRequest { id accountNumber heldForReview } } }`;
const EXPORT = `mutation { exportPayoutRequests { status { success identifier } xml payoutCount } }`;
const COMPLETE = `mutation($id: ID!) { setPayoutRequestAsCompleted(id: $id) {
  status { success identifier message } payoutRequest { status } } }`;
const RELEASE = `mutation($id: ID!) { releasePayoutRequest(id: $id) {
  status { success identifier } payoutRequest { heldForReview releasedAt } } }`;

const STAFF = { id: randomUUID(), roles: ['moderator' as const] };
const dutch = {
  paymentName: 'Zoë de Vries',
  paymentAccountNumber: 'NL91ABNA0417164300',
  paymentBic: 'ABNANL2A',
  paymentAddress: 'Keizersgracht 1',
  paymentPostalCode: '1015 CJ',
  paymentCity: 'Amsterdam',
  paymentCountryCode: 'NL',
  phoneNumber: '+31 6 12345678',
};
const german = {
  ...dutch,
  paymentAccountNumber: 'DE89370400440532013000',
  paymentBic: 'COBADEFFXXX',
  paymentCity: 'Berlin',
  paymentCountryCode: 'DE',
};

describe('wallet: changing the payout IBAN', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: Awaited<ReturnType<typeof startWallet>>;
  let user: string;
  let token: string;
  let sessionId: string;

  const proofFor = async (userId: string, session: string, purpose = 'payment_profile') => {
    const issuer = await createTokenIssuer({
      privateKeyPem: (await testKeys()).privateKeyPem,
      issuer: JWT_ISSUER,
      ttlSeconds: 3600,
    });
    return (await issuer.issueReauth({ userId, sessionId: session, purpose, ttlSeconds: 600 }))
      .token;
  };
  const update = async (input: Record<string, unknown>) =>
    (await graphql(wallet.url, UPDATE_PROFILE, { input }, { token })).data!
      .updateProfilePaymentInformation;
  const payout = async (amount: number) =>
    (await graphql(wallet.url, REQUEST, { amount }, { token })).data!.payoutRequest;

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix);
    user = await userWithBalance(wallet.app, 80_000);
    token = await tokenFor({ id: user });
    sessionId = (await wallet.runtime.verifier.verify(token)).tokenId;
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });

  it('sets the first IBAN without re-authentication; its payouts do not wait', async () => {
    expect((await update(dutch)).status.success).toBe(true);
    const first = await payout(10_000);
    expect(first.payoutRequest).toMatchObject({
      accountNumber: 'NL91ABNA0417164300',
      heldForReview: false,
    });
    // Other details of the same account change freely.
    expect((await update({ ...dutch, paymentCity: 'Utrecht' })).paymentProfile.paymentCity).toBe(
      'Utrecht',
    );
  });

  it('refuses another IBAN without a proof, or with one of another session, user or purpose', async () => {
    const otherSession = await proofFor(user, randomUUID());
    const otherUser = await proofFor(randomUUID(), sessionId);
    const otherPurpose = await proofFor(user, sessionId, 'something_else');
    for (const reauthProof of [undefined, otherSession, otherUser, otherPurpose, token, 'x.y.z']) {
      const outcome = await update({ ...german, reauthProof });
      expect(outcome.status).toMatchObject({ success: false, identifier: 'invalid_credentials' });
    }
    const saved = await wallet.app.db.paymentProfile.findUniqueOrThrow({ where: { userId: user } });
    expect(saved.iban).toBe('NL91ABNA0417164300');
    expect(
      await wallet.app.db.outboxEvent.count({ where: { type: 'PaymentAccountChanged' } }),
    ).toBe(0);
  });

  it('replaces it with a proof of this session and announces the change (endings only)', async () => {
    const outcome = await update({ ...german, reauthProof: await proofFor(user, sessionId) });
    expect(outcome).toMatchObject({
      status: { success: true },
      paymentProfile: { paymentAccountNumber: 'DE89370400440532013000' },
    });
    const events = await wallet.app.db.outboxEvent.findMany({
      where: { type: 'PaymentAccountChanged' },
    });
    expect(events).toHaveLength(1);
    const payload = events[0]!.payload as { data: Record<string, unknown>; aggregateId: string };
    expect(payload.data).toMatchObject({
      userId: user,
      ibanEnding: '3000',
      previousIbanEnding: '4300',
    });
    expect(JSON.stringify(payload)).not.toContain('DE89370400440532013000');
  });

  it('holds a payout to the new IBAN for staff: not exported nor completed until released', async () => {
    const held = (await payout(20_000)).payoutRequest;
    expect(held).toMatchObject({ accountNumber: 'DE89370400440532013000', heldForReview: true });

    const file = (await graphql(wallet.url, EXPORT, {}, STAFF)).data!.exportPayoutRequests;
    expect(file.payoutCount).toBe(1); // the earlier payout only
    expect(file.xml).not.toContain('DE89370400440532013000');
    const early = await graphql(wallet.url, COMPLETE, { id: held.id }, STAFF);
    // Still open (no file has it), and only a payout in a SEPA file can be completed.
    expect(early.data!.setPayoutRequestAsCompleted.status.identifier).toBe('invalid_status_change');

    const byUser = await graphql(wallet.url, RELEASE, { id: held.id }, { token });
    expect(byUser.data!.releasePayoutRequest.status.identifier).toBe('access_denied');
    // A staff member's own payout after their own IBAN change is for a colleague to check.
    const bySelf = await graphql(
      wallet.url,
      RELEASE,
      { id: held.id },
      { id: user, roles: ['moderator'] },
    );
    expect(bySelf.data!.releasePayoutRequest.status.identifier).toBe('access_denied');
    const released = await graphql(wallet.url, RELEASE, { id: held.id }, STAFF);
    expect(released.data!.releasePayoutRequest).toMatchObject({
      status: { success: true },
      payoutRequest: { heldForReview: false, releasedAt: expect.any(String) },
    });
    const again = await graphql(wallet.url, RELEASE, { id: held.id }, STAFF);
    expect(again.data!.releasePayoutRequest.status.identifier).toBe('redundant_mutation');

    const next = (await graphql(wallet.url, EXPORT, {}, STAFF)).data!.exportPayoutRequests;
    expect(next.payoutCount).toBe(1);
    expect(next.xml).toContain('DE89370400440532013000');
    const done = await graphql(wallet.url, COMPLETE, { id: held.id }, STAFF);
    expect(done.data!.setPayoutRequestAsCompleted.payoutRequest.status).toBe('done');
  });

  it('does not hold payouts once the change is 24 hours old', async () => {
    await wallet.app.db.paymentProfile.update({
      where: { userId: user },
      data: { ibanChangedAt: new Date(Date.now() - 24 * 60 * 60 * 1000 - 1000) },
    });
    expect((await payout(5_000)).payoutRequest.heldForReview).toBe(false);
  });
});
