import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent, type EventType } from '@challenge/events';
import { createEscrowClient, type EscrowClient } from '@challenge/kit';
import {
  deleteTopics,
  graphql,
  produceRaw,
  uniqueTopicPrefix,
  waitForCaughtUp,
  type TestService,
} from '@challenge/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WalletApp } from '../src/app.ts';
import {
  INTERNAL_TOKEN,
  balances,
  expectLedgerBalanced,
  startWallet,
  userWithBalance,
} from './support.ts';

const HOLD_FIELDS = `challengeId party challengeStatus reason amount expiresAt
  owner { id } captureTo { id }`;
const RECONCILIATION = `{ escrowReconciliation { status { success identifier }
  holdsWithoutLiveChallenge { ${HOLD_FIELDS} }
  liveChallengesWithoutHold { challengeId party reason } } }`;
const RESOLVE = `mutation ($input: ResolveEscrowHoldInput!) {
  resolveEscrowHold(input: $input) { status { success identifier }
    hold { challengeId party amount status owner { id } payee { id } } } }`;
const STAFF = { id: randomUUID(), roles: ['moderator' as const] };
const HOUR = 3_600_000;

/**
 * Issue 18, point 13: the reconciliation reports every stake still held whose challenge is over,
 * unknown to wallet, or past its expiry, with the reason; staff settle each once, with a written
 * reason, which EscrowHoldResolved carries to moderation's audit log.
 */
describe('escrow reconciliation: stray holds reported and resolved by staff', () => {
  const topicPrefix = uniqueTopicPrefix();
  let wallet: TestService<WalletApp>;
  let escrow: EscrowClient;

  beforeAll(async () => {
    wallet = await startWallet(topicPrefix);
    escrow = createEscrowClient({ baseUrl: wallet.url, token: INTERNAL_TOKEN });
  });
  afterAll(async () => {
    await wallet?.stop();
    await deleteTopics(topicPrefix);
  });
  // Each test resolves what it made stray: the report is empty again, the ledger sums to zero.
  afterEach(async () => {
    const { data } = await graphql(wallet.url, RECONCILIATION, {}, STAFF);
    expect(data?.escrowReconciliation).toEqual({
      status: { success: true, identifier: 'ok' },
      holdsWithoutLiveChallenge: [],
      liveChallengesWithoutHold: [],
    });
    await expectLedgerBalanced(wallet.app.db);
  });

  function challenge(
    ownerId: string,
    rewardCents: number,
    challengedUserId: string | null,
    options: { expiresAt?: Date; challengeType?: 'solo' | 'duel' } = {},
  ) {
    const challengeId = randomUUID();
    return {
      challengeId,
      slug: `dare-${challengeId.slice(0, 8)}`,
      challengeName: 'Sing in the rain',
      rewardCents,
      ownerId,
      challengedUserId,
      challengedEmail: null,
      challengeType: options.challengeType ?? ('solo' as const),
      expiresAt: (options.expiresAt ?? new Date(Date.now() + 14 * 24 * HOUR)).toISOString(),
    };
  }
  type Snapshot = ReturnType<typeof challenge>;

  const holdFor = (c: Snapshot, staker = c.ownerId, party: 'owner' | 'challenged' = 'owner') =>
    escrow.hold({
      challengeId: c.challengeId,
      ownerId: staker,
      amountCents: c.rewardCents,
      slug: c.slug,
      challengeName: c.challengeName,
      party,
    });

  async function publish(c: Snapshot, types: EventType[], data: object = {}) {
    const extra: Record<string, object> = {
      ChallengeCreated: { visibility: 'public' },
      ChallengeCompleted: { judgedByReferee: false },
    };
    const messages = types.map((type) => {
      const event = newEvent(type as 'ChallengeAccepted', {
        aggregateId: c.challengeId,
        actorId: c.ownerId,
        data: { ...c, ...extra[type], ...data },
      });
      return { key: c.challengeId, value: JSON.stringify(event) };
    });
    await produceRaw(topicPrefix, TOPICS.challenge, messages);
    await waitForCaughtUp(topicPrefix, 'wallet', TOPICS.challenge);
  }

  const report = async () => {
    const { data } = await graphql(wallet.url, RECONCILIATION, {}, STAFF);
    return data!.escrowReconciliation;
  };

  const resolve = async (
    input: Record<string, unknown>,
    caller: { id: string; roles?: ('moderator' | 'admin' | 'user')[] } = STAFF,
  ) => {
    const { data, errors } = await graphql(wallet.url, RESOLVE, { input }, caller);
    expect(errors).toBeUndefined();
    return data!.resolveEscrowHold;
  };

  /** The audit events wallet wrote for moderation, in its outbox. */
  const resolutionsOf = async (challengeId: string) =>
    (
      await wallet.app.db.outboxEvent.findMany({
        where: { key: challengeId, type: 'EscrowHoldResolved' },
        orderBy: { seq: 'asc' },
      })
    ).map((row) => {
      const event = row.payload as { actorId: string; data: object };
      return { actorId: event.actorId, ...event.data };
    });

  it('reports each kind of stray hold with its reason, and nothing for a live hold', async () => {
    const owner = await userWithBalance(wallet.app, 1_000);
    const payee = randomUUID();
    const missing = challenge(owner, 100, null);
    const over = challenge(owner, 200, payee);
    const pastExpiry = challenge(owner, 300, null, { expiresAt: new Date(Date.now() - HOUR) });
    const live = challenge(owner, 400, null);
    for (const c of [missing, over, pastExpiry, live]) await holdFor(c);
    await publish(over, ['ChallengeCreated']);
    // A completion naming someone else keeps the reward held (ADR 15): over, and still held.
    await publish(over, ['ChallengeCompleted'], { challengedUserId: randomUUID() });
    await publish(pastExpiry, ['ChallengeCreated']);
    await publish(live, ['ChallengeCreated']);

    const { holdsWithoutLiveChallenge } = await report();
    const byId = new Map(
      holdsWithoutLiveChallenge.map((row: { challengeId: string }) => [row.challengeId, row]),
    );
    expect(byId.size).toBe(3);
    expect(byId.get(missing.challengeId)).toMatchObject({
      party: 'owner',
      reason: 'challenge_missing',
      challengeStatus: null,
      amount: 100,
      owner: { id: owner },
      captureTo: null,
    });
    expect(byId.get(over.challengeId)).toMatchObject({
      reason: 'challenge_over',
      challengeStatus: 'completed',
      captureTo: { id: payee },
    });
    expect(byId.get(pastExpiry.challengeId)).toMatchObject({
      reason: 'past_expiry',
      challengeStatus: 'open',
      expiresAt: pastExpiry.expiresAt,
    });
    // The owner moves the date: no longer past it.
    await publish(pastExpiry, ['ChallengeExpirationChanged'], {
      expiresAt: new Date(Date.now() + 7 * 24 * HOUR).toISOString(),
    });
    expect(
      (await report()).holdsWithoutLiveChallenge.map(
        (row: { challengeId: string }) => row.challengeId,
      ),
    ).not.toContain(pastExpiry.challengeId);

    // Clean up as staff would, and as the challenges' events do.
    await resolve({ challengeId: missing.challengeId, outcome: 'release', reason: 'Test cleanup' });
    await resolve({ challengeId: over.challengeId, outcome: 'release', reason: 'Test cleanup' });
    await publish(pastExpiry, ['ChallengeExpired']);
    await publish(live, ['ChallengeCancelled']);
    expect(await balances(wallet.app, owner)).toEqual({ available: 1_000, frozen: 0 });
  });

  it('releases a stake of an unknown challenge to its staker once, audited; a capture has nobody to pay', async () => {
    const owner = await userWithBalance(wallet.app, 500);
    const missing = challenge(owner, 500, null);
    await holdFor(missing);
    const capture = await resolve({
      challengeId: missing.challengeId,
      outcome: 'capture',
      reason: 'Pay someone',
    });
    expect(capture.status).toEqual({ success: false, identifier: 'invalid_action' });
    expect(await balances(wallet.app, owner)).toEqual({ available: 0, frozen: 500 });

    const [first, second] = await Promise.all(
      [1, 2].map(() =>
        resolve({
          challengeId: missing.challengeId,
          outcome: 'release',
          reason: 'No challenge behind it (support ticket 42)',
        }),
      ),
    );
    // Concurrent resolutions: one moves the money, the other hears it is no longer reported.
    const results = [first, second].map((result) => result.status.identifier).sort();
    expect(results).toEqual(['invalid_action', 'ok']);
    const done = [first, second].find((result) => result.status.success)!;
    expect(done.hold).toEqual({
      challengeId: missing.challengeId,
      party: 'owner',
      amount: 500,
      status: 'released',
      owner: { id: owner },
      payee: { id: owner },
    });
    expect(await balances(wallet.app, owner)).toEqual({ available: 500, frozen: 0 });
    expect(await resolutionsOf(missing.challengeId)).toEqual([
      {
        actorId: STAFF.id,
        challengeId: missing.challengeId,
        party: 'owner',
        stakerId: owner,
        payeeId: owner,
        amountCents: 500,
        outcome: 'released',
        mismatch: 'challenge_missing',
        reason: 'No challenge behind it (support ticket 42)',
      },
    ]);
  });

  it("captures an ended challenge's reward to the challenged user it named, and a late end moves nothing", async () => {
    const owner = await userWithBalance(wallet.app, 700);
    const performer = randomUUID();
    const over = challenge(owner, 700, performer);
    await holdFor(over);
    await publish(over, ['ChallengeCreated']);
    await publish(over, ['ChallengeCompleted'], { challengedUserId: randomUUID() });
    const capture = {
      challengeId: over.challengeId,
      outcome: 'capture',
      reason: 'The video was approved; the completion named a wrong user',
    };
    // Neither party of the challenge settles it, staff or not (the staff conflict rule).
    for (const party of [owner, performer]) {
      const refused = await resolve(capture, { id: party, roles: ['admin'] });
      expect(refused.status.identifier).toBe('access_denied');
    }
    expect(await balances(wallet.app, owner)).toEqual({ available: 0, frozen: 700 });
    const result = await resolve(capture);
    expect(result).toMatchObject({
      status: { success: true },
      hold: { status: 'captured', payee: { id: performer }, amount: 700 },
    });
    expect(await balances(wallet.app, owner)).toEqual({ available: 0, frozen: 0 });
    expect(await balances(wallet.app, performer)).toEqual({ available: 700, frozen: 0 });
    // The consistent completion arrives after all: it pays nobody a second time.
    await publish(over, ['ChallengeCompleted']);
    expect(await balances(wallet.app, performer)).toEqual({ available: 700, frozen: 0 });
    expect((await resolutionsOf(over.challengeId))[0]).toMatchObject({
      outcome: 'captured',
      payeeId: performer,
      mismatch: 'challenge_over',
    });
  });

  it("captures a duel's challenged stake to the owner, and releases a stake past its expiry", async () => {
    const [owner, challenged] = [
      await userWithBalance(wallet.app, 300),
      await userWithBalance(wallet.app, 300),
    ];
    const duel = challenge(owner, 300, challenged, { challengeType: 'duel' });
    await holdFor(duel);
    await publish(duel, ['ChallengeCreated']);
    await holdFor(duel, challenged, 'challenged');
    await publish(duel, ['ChallengeAccepted']);
    // The duel's end came without its outcome: both stakes stay held (ADR 32), reported.
    await publish(duel, ['ChallengeFailed'], { comment: null });
    const rows = (await report()).holdsWithoutLiveChallenge;
    expect(rows).toEqual([
      expect.objectContaining({ party: 'owner', captureTo: { id: challenged } }),
      expect.objectContaining({ party: 'challenged', captureTo: { id: owner } }),
    ]);
    const captured = await resolve({
      challengeId: duel.challengeId,
      party: 'challenged',
      outcome: 'capture',
      reason: 'The owner completed, the challenged user did not',
    });
    expect(captured.hold).toMatchObject({ party: 'challenged', payee: { id: owner } });
    await resolve({
      challengeId: duel.challengeId,
      outcome: 'release',
      reason: 'The owner completed: their own stake back',
    });
    expect(await balances(wallet.app, owner)).toEqual({ available: 600, frozen: 0 });
    expect(await balances(wallet.app, challenged)).toEqual({ available: 0, frozen: 0 });

    const late = challenge(owner, 600, null, { expiresAt: new Date(Date.now() - HOUR) });
    await holdFor(late);
    await publish(late, ['ChallengeCreated']);
    const released = await resolve({
      challengeId: late.challengeId,
      outcome: 'release',
      reason: 'Expired a week ago; the scheduler missed it',
    });
    expect(released.hold).toMatchObject({ status: 'released', payee: { id: owner } });
    // The expiry arrives after all: nothing moves twice.
    await publish(late, ['ChallengeExpired']);
    expect(await balances(wallet.app, owner)).toEqual({ available: 600, frozen: 0 });
  });

  it('leaves out a stake whose challenge is offline (its timers stand still), past its date or not', async () => {
    const owner = await userWithBalance(wallet.app, 400);
    const past = new Date(Date.now() - HOUR).toISOString();
    const offline = challenge(owner, 400, randomUUID(), { expiresAt: new Date(Date.now() - HOUR) });
    await holdFor(offline);
    await publish(offline, ['ChallengeCreated', 'ChallengeAccepted']);
    const reported = async () =>
      (await report()).holdsWithoutLiveChallenge.filter(
        (row: { challengeId: string }) => row.challengeId === offline.challengeId,
      );
    expect(await reported()).toHaveLength(1); // past its date, timers running: stray
    await publish(offline, ['ChallengeExpirationChanged'], { expiresAt: past, timersPaused: true });
    expect(await reported()).toEqual([]);
    const release = { challengeId: offline.challengeId, outcome: 'release', reason: 'Looks stuck' };
    expect((await resolve(release)).status.identifier).toBe('invalid_action');
    expect(await balances(wallet.app, owner)).toEqual({ available: 0, frozen: 400 });
    // Back online with the date moved by the offline time: still live, still not stray.
    const later = new Date(Date.now() + 14 * 24 * HOUR).toISOString();
    await publish(offline, ['ChallengeExpirationChanged'], {
      expiresAt: later,
      timersPaused: false,
    });
    expect(await reported()).toEqual([]);
    // Back online without time left: reported again.
    await publish(offline, ['ChallengeExpirationChanged'], {
      expiresAt: past,
      timersPaused: false,
    });
    expect(await reported()).toHaveLength(1);
    await publish(offline, ['ChallengeExpired']);
  });

  it('refuses a live hold, a missing reason and anyone but staff', async () => {
    const owner = await userWithBalance(wallet.app, 200);
    const live = challenge(owner, 200, null);
    await holdFor(live);
    await publish(live, ['ChallengeCreated']);
    const release = { challengeId: live.challengeId, outcome: 'release', reason: 'Because' };
    expect((await resolve(release)).status.identifier).toBe('invalid_action');
    expect((await resolve({ ...release, reason: '  ' })).status.identifier).toBe('invalid_input');
    expect((await resolve(release, { id: owner, roles: ['user'] })).status.identifier).toBe(
      'access_denied',
    );
    expect((await resolve({ ...release, challengeId: randomUUID() })).status.identifier).toBe(
      'not_found',
    );
    expect(await balances(wallet.app, owner)).toEqual({ available: 0, frozen: 200 });
    await publish(live, ['ChallengeCancelled']);
  });
});
