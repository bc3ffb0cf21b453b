import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent, type EventType } from '@challenge/events';
import { AppError, createEscrowClient, type EscrowClient } from '@challenge/kit';
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
import { INTERNAL_TOKEN, balances, startWallet, userWithBalance } from './support.ts';

const RECONCILIATION = `{ escrowReconciliation { status { success identifier }
  holdsWithoutLiveChallenge { challengeId slug challengeStatus amount owner { id } }
  liveChallengesWithoutHold { challengeId challengeName challengeStatus amount } } }`;
const STAFF = { id: randomUUID(), roles: ['moderator' as const] };

describe('escrow: the money side of the challenge saga', () => {
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
  // Every hold has a live challenge and every live challenge its hold once a test is done.
  afterEach(async () => {
    const result = await graphql(wallet.url, RECONCILIATION, {}, STAFF);
    expect(result.data?.escrowReconciliation).toEqual({
      status: { success: true, identifier: 'ok' },
      holdsWithoutLiveChallenge: [],
      liveChallengesWithoutHold: [],
    });
  });

  function challenge(ownerId: string, rewardCents: number, challengedUserId: string | null) {
    const challengeId = randomUUID();
    return {
      challengeId,
      slug: `dare-${challengeId.slice(0, 8)}`,
      challengeName: 'Eat a lemon',
      rewardCents,
      ownerId,
      challengedUserId,
      challengedEmail: null,
    };
  }
  type Snapshot = ReturnType<typeof challenge>;

  const holdFor = (c: Snapshot) =>
    escrow.hold({
      challengeId: c.challengeId,
      ownerId: c.ownerId,
      amountCents: c.rewardCents,
      slug: c.slug,
      challengeName: c.challengeName,
    });

  /** Publishes challenge events as the challenge service would, each `times` times, and waits. */
  async function publish(c: Snapshot, types: EventType[], times = 1) {
    const extra: Record<string, object> = {
      ChallengeCreated: { visibility: 'public', expiresAt: '2030-01-01T00:00:00.000Z' },
      ChallengeRefused: { reason: 'No time' },
      ChallengeSentToReferee: { reason: 'Not a lemon' },
      ChallengeCompleted: { judgedByReferee: false },
      ChallengeFailed: { comment: null },
      ChallengeVideoUploaded: { videoId: randomUUID() },
    };
    const messages = types.flatMap((type) => {
      const event = newEvent(type as 'ChallengeAccepted', {
        aggregateId: c.challengeId,
        actorId: c.ownerId,
        data: { ...c, ...extra[type] },
      });
      const message = { key: c.challengeId, value: JSON.stringify(event) };
      return Array.from({ length: times }, () => message);
    });
    await produceRaw(topicPrefix, TOPICS.challenge, messages);
    await waitForCaughtUp(topicPrefix, 'wallet', TOPICS.challenge);
  }

  const transfersOf = (challengeId: string) =>
    wallet.app.db.ledgerTransfer.findMany({ where: { challengeId }, select: { kind: true } });

  it('holds the reward from the owner and answers the same hold to a repeated call', async () => {
    const owner = await userWithBalance(wallet.app, 1000);
    const c = challenge(owner, 600, randomUUID());
    const first = await holdFor(c);
    const again = await Promise.all([holdFor(c), holdFor(c)]);
    expect(first).toEqual({
      challengeId: c.challengeId,
      ownerId: owner,
      amountCents: 600,
      status: 'held',
    });
    expect(again).toEqual([first, first]);
    expect(await balances(wallet.app, owner)).toEqual({ available: 400, frozen: 600 });
    expect(await transfersOf(c.challengeId)).toEqual([{ kind: 'escrow_hold' }]);
    await expect(holdFor({ ...c, rewardCents: 700 })).rejects.toMatchObject({
      identifier: 'invalid_input',
    });
    await publish(c, ['ChallengeCreated', 'ChallengeCancelled']);
  });

  it('answers insufficient_funds and moves nothing when the owner cannot pay', async () => {
    const owner = await userWithBalance(wallet.app, 499);
    const c = challenge(owner, 500, randomUUID());
    const refusal = await holdFor(c).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ identifier: 'insufficient_funds' });
    expect(await balances(wallet.app, owner)).toEqual({ available: 499, frozen: 0 });
    expect(await wallet.app.db.escrowHold.count({ where: { challengeId: c.challengeId } })).toBe(0);
  });

  it('never holds more than the owner has, however many challenges race', async () => {
    const owner = await userWithBalance(wallet.app, 1000);
    const challenges = Array.from({ length: 10 }, () => challenge(owner, 300, randomUUID()));
    const results = await Promise.allSettled(challenges.map(holdFor));
    const held = challenges.filter((_, index) => results[index]!.status === 'fulfilled');
    expect(held).toHaveLength(3);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({
        identifier: 'insufficient_funds',
      });
    }
    expect(await balances(wallet.app, owner)).toEqual({ available: 100, frozen: 900 });
    for (const c of held) await publish(c, ['ChallengeCreated', 'ChallengeExpired']);
    expect(await balances(wallet.app, owner)).toEqual({ available: 1000, frozen: 0 });
  });

  it('refuses a caller without the internal token', async () => {
    const stranger = createEscrowClient({ baseUrl: wallet.url, token: 'x'.repeat(40) });
    const owner = await userWithBalance(wallet.app, 1000);
    const c = challenge(owner, 100, null);
    await expect(stranger.hold({ ...c, amountCents: c.rewardCents })).rejects.toMatchObject({
      identifier: 'unauthorized',
    });
    expect(await wallet.app.db.escrowHold.count({ where: { challengeId: c.challengeId } })).toBe(0);
    expect(await balances(wallet.app, owner)).toEqual({ available: 1000, frozen: 0 });
  });

  it('pays the challenged user once when the challenge completes, whatever Kafka redelivers', async () => {
    const owner = await userWithBalance(wallet.app, 2000);
    const challenged = await userWithBalance(wallet.app, 0);
    const c = challenge(owner, 1500, challenged);
    await holdFor(c);
    await publish(c, ['ChallengeCreated', 'ChallengeAccepted', 'ChallengeVideoUploaded'], 2);
    expect(await balances(wallet.app, owner)).toEqual({ available: 500, frozen: 1500 });
    await publish(c, ['ChallengeCompleted'], 3);
    // A late, contradictory event changes nothing either.
    await publish(c, ['ChallengeCancelled']);
    expect(await balances(wallet.app, owner)).toEqual({ available: 500, frozen: 0 });
    expect(await balances(wallet.app, challenged)).toEqual({ available: 1500, frozen: 0 });
    expect((await transfersOf(c.challengeId)).map((t) => t.kind).sort()).toEqual([
      'escrow_capture',
      'escrow_hold',
    ]);
  });

  it.each<EventType>([
    'ChallengeRefused',
    'ChallengeFailed',
    'ChallengeCancelled',
    'ChallengeExpired',
  ])('%s gives the reward back to the owner once', async (ending) => {
    const owner = await userWithBalance(wallet.app, 800);
    const challenged = await userWithBalance(wallet.app, 0);
    const c = challenge(owner, 800, challenged);
    await holdFor(c);
    const path: EventType[] =
      ending === 'ChallengeFailed'
        ? [
            'ChallengeCreated',
            'ChallengeAccepted',
            'ChallengeVideoUploaded',
            'ChallengeSentToReferee',
          ]
        : ['ChallengeCreated'];
    await publish(c, path);
    expect(await balances(wallet.app, owner)).toEqual({ available: 0, frozen: 800 });
    await publish(c, [ending], 2);
    await publish(c, ['ChallengeCompleted']); // too late: the money is back with the owner
    expect(await balances(wallet.app, owner)).toEqual({ available: 800, frozen: 0 });
    expect(await balances(wallet.app, challenged)).toEqual({ available: 0, frozen: 0 });
    expect((await transfersOf(c.challengeId)).map((t) => t.kind).sort()).toEqual([
      'escrow_hold',
      'escrow_release',
    ]);
  });

  it('opens a wallet for a challenged user that wallet has not heard of yet', async () => {
    const owner = await userWithBalance(wallet.app, 300);
    const newcomer = randomUUID();
    const c = challenge(owner, 300, newcomer);
    await holdFor(c);
    await publish(c, ['ChallengeCreated', 'ChallengeCompleted']);
    expect(await balances(wallet.app, newcomer)).toEqual({ available: 300, frozen: 0 });
    expect(await wallet.app.db.wallet.count({ where: { userId: newcomer } })).toBe(1);
  });

  it('reports holds without a live challenge and live challenges without a hold, to staff only', async () => {
    const owner = await userWithBalance(wallet.app, 1000);
    const orphanHold = challenge(owner, 200, null);
    await holdFor(orphanHold);
    const unheld = challenge(owner, 300, null);
    await publish(unheld, ['ChallengeCreated']);

    const report = await graphql(wallet.url, RECONCILIATION, {}, STAFF);
    expect(report.data?.escrowReconciliation).toEqual({
      status: { success: true, identifier: 'ok' },
      holdsWithoutLiveChallenge: [
        {
          challengeId: orphanHold.challengeId,
          slug: orphanHold.slug,
          challengeStatus: null,
          amount: 200,
          owner: { id: owner },
        },
      ],
      liveChallengesWithoutHold: [
        {
          challengeId: unheld.challengeId,
          challengeName: 'Eat a lemon',
          challengeStatus: 'open',
          amount: 300,
        },
      ],
    });
    const user = await graphql(wallet.url, RECONCILIATION, {}, { id: owner });
    expect(user.data?.escrowReconciliation.status).toEqual({
      success: false,
      identifier: 'access_denied',
    });

    // The challenge service gives back a hold it could not open; a live challenge's hold stays.
    expect(await escrow.release(orphanHold.challengeId)).toMatchObject({ status: 'released' });
    await publish(unheld, ['ChallengeCancelled']);
    const live = challenge(owner, 100, null);
    await holdFor(live);
    await publish(live, ['ChallengeCreated']);
    await expect(escrow.release(live.challengeId)).rejects.toMatchObject({
      identifier: 'invalid_action',
    });
    await publish(live, ['ChallengeCancelled']);
    expect(await balances(wallet.app, owner)).toEqual({ available: 1000, frozen: 0 });
  });

  const holdRow = (c: Snapshot) =>
    wallet.app.db.escrowHold.findUniqueOrThrow({
      where: { challengeId_party: { challengeId: c.challengeId, party: 'owner' } },
    });

  it('refuses to hold again a reward already given back or paid, or of an ended challenge', async () => {
    const owner = await userWithBalance(wallet.app, 1000);
    const challenged = await userWithBalance(wallet.app, 0);
    // Given back by the challenge service, then its create retried: no challenge without money.
    const given = challenge(owner, 300, challenged);
    await holdFor(given);
    expect(await escrow.release(given.challengeId)).toMatchObject({ status: 'released' });
    await expect(holdFor(given)).rejects.toMatchObject({ identifier: 'invalid_action' });
    // Paid out: a repeated hold must not answer success either.
    const paid = challenge(owner, 200, challenged);
    await holdFor(paid);
    await publish(paid, ['ChallengeCreated', 'ChallengeAccepted', 'ChallengeCompleted']);
    await expect(holdFor(paid)).rejects.toMatchObject({ identifier: 'invalid_action' });
    // A challenge wallet saw end without any hold gets none afterwards.
    const ended = challenge(owner, 100, challenged);
    await publish(ended, ['ChallengeCreated', 'ChallengeCancelled']);
    await expect(holdFor(ended)).rejects.toMatchObject({ identifier: 'invalid_action' });
    expect(
      await wallet.app.db.escrowHold.count({ where: { challengeId: ended.challengeId } }),
    ).toBe(0);
    expect(await balances(wallet.app, owner)).toEqual({ available: 800, frozen: 0 });
    expect(await balances(wallet.app, challenged)).toEqual({ available: 200, frozen: 0 });
  });

  it('keeps the reward of a challenge whose ChallengeCreated comes after a release', async () => {
    const owner = await userWithBalance(wallet.app, 500);
    const c = challenge(owner, 500, randomUUID());
    await holdFor(c);
    expect(await escrow.release(c.challengeId)).toMatchObject({ status: 'released' });
    expect(await balances(wallet.app, owner)).toEqual({ available: 500, frozen: 0 });
    // The challenge went live after all (its create committed although challenge thought not).
    await publish(c, ['ChallengeCreated', 'ChallengeAccepted'], 2);
    expect(await balances(wallet.app, owner)).toEqual({ available: 0, frozen: 500 });
    // Held again: no longer void (the void stays in the ledger, escrow-void:<id>).
    expect(await holdRow(c)).toMatchObject({ status: 'held', voidedAt: null });
    await expect(escrow.release(c.challengeId)).rejects.toMatchObject({
      identifier: 'invalid_action',
    });
    await publish(c, ['ChallengeCancelled']);
    expect(await balances(wallet.app, owner)).toEqual({ available: 500, frozen: 0 });
    expect((await transfersOf(c.challengeId)).map((t) => t.kind).sort()).toEqual([
      'escrow_hold',
      'escrow_hold',
      'escrow_release',
      'escrow_release',
    ]);
  });

  it('never leaves a live challenge without its reward when a release races ChallengeCreated', async () => {
    for (let round = 0; round < 4; round += 1) {
      const owner = await userWithBalance(wallet.app, 700);
      const c = challenge(owner, 700, randomUUID());
      await holdFor(c);
      const [released] = await Promise.allSettled([
        escrow.release(c.challengeId),
        publish(c, ['ChallengeCreated']),
      ]);
      if (released.status === 'rejected') {
        expect(released.reason).toMatchObject({ identifier: 'invalid_action' });
      }
      // Whoever won, the live challenge's reward is held (the reconciliation checks it too).
      expect(await balances(wallet.app, owner)).toEqual({ available: 0, frozen: 700 });
      expect((await holdRow(c)).status).toBe('held');
      const report = await graphql(wallet.url, RECONCILIATION, {}, STAFF);
      expect(report.data?.escrowReconciliation.liveChallengesWithoutHold).toEqual([]);
      await publish(c, ['ChallengeExpired']);
      expect(await balances(wallet.app, owner)).toEqual({ available: 700, frozen: 0 });
    }
  });

  it('pays only the challenged user that the challenge named before it completed', async () => {
    const owner = await userWithBalance(wallet.app, 1000);
    const named = await userWithBalance(wallet.app, 0);
    const intruder = await userWithBalance(wallet.app, 0);
    const c = challenge(owner, 1000, named);
    await holdFor(c);
    await publish(c, ['ChallengeCreated', 'ChallengeAccepted', 'ChallengeVideoUploaded']);
    // A completion that names someone else moves nothing...
    await publish({ ...c, challengedUserId: intruder }, ['ChallengeCompleted']);
    expect(await balances(wallet.app, intruder)).toEqual({ available: 0, frozen: 0 });
    expect(await balances(wallet.app, owner)).toEqual({ available: 0, frozen: 1000 });
    // ...and staff see the held reward of a completed challenge.
    const report = await graphql(wallet.url, RECONCILIATION, {}, STAFF);
    expect(report.data?.escrowReconciliation.holdsWithoutLiveChallenge).toEqual([
      expect.objectContaining({ challengeId: c.challengeId, challengeStatus: 'completed' }),
    ]);
    // The completion that names the challenged user pays them, once.
    await publish(c, ['ChallengeCompleted'], 2);
    expect(await balances(wallet.app, named)).toEqual({ available: 1000, frozen: 0 });
    expect(await balances(wallet.app, intruder)).toEqual({ available: 0, frozen: 0 });
  });

  it('takes the challenged user of an e-mail invite from its acceptance, and no later one', async () => {
    const owner = await userWithBalance(wallet.app, 400);
    const accepted = await userWithBalance(wallet.app, 0);
    const later = await userWithBalance(wallet.app, 0);
    const c = challenge(owner, 400, null);
    await holdFor(c);
    await publish(c, ['ChallengeCreated']);
    await publish({ ...c, challengedUserId: accepted }, ['ChallengeAccepted']);
    await publish({ ...c, challengedUserId: later }, ['ChallengeAccepted', 'ChallengeCompleted']);
    expect(await balances(wallet.app, later)).toEqual({ available: 0, frozen: 0 });
    expect(await balances(wallet.app, owner)).toEqual({ available: 0, frozen: 400 });
    await publish({ ...c, challengedUserId: accepted }, ['ChallengeCompleted']);
    expect(await balances(wallet.app, accepted)).toEqual({ available: 400, frozen: 0 });

    // A challenge that never named anyone pays no one; its failure gives the owner the money back.
    const other = await userWithBalance(wallet.app, 300);
    const unnamed = challenge(other, 300, null);
    await holdFor(unnamed);
    await publish(unnamed, ['ChallengeCreated', 'ChallengeCompleted']);
    await publish({ ...unnamed, challengedUserId: later }, ['ChallengeCompleted']);
    expect(await balances(wallet.app, later)).toEqual({ available: 0, frozen: 0 });
    expect(await balances(wallet.app, other)).toEqual({ available: 0, frozen: 300 });
    await publish(unnamed, ['ChallengeFailed']);
    expect(await balances(wallet.app, other)).toEqual({ available: 300, frozen: 0 });
  });
});
