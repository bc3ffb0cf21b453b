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

const RECONCILIATION = `{ escrowReconciliation { status { success identifier }
  holdsWithoutLiveChallenge { challengeId challengeStatus }
  liveChallengesWithoutHold { challengeId challengeStatus } } }`;
const STAFF = { id: randomUUID(), roles: ['moderator' as const] };

type Outcome = 'completed' | 'failed';

/** Duels (docs/adr/0032): the owner's reward held at creation, the challenged user's at acceptance. */
describe('escrow of a duel: two stakes, settled by the duel money rules', () => {
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
  afterEach(async () => {
    const result = await graphql(wallet.url, RECONCILIATION, {}, STAFF);
    expect(result.data?.escrowReconciliation).toEqual({
      status: { success: true, identifier: 'ok' },
      holdsWithoutLiveChallenge: [],
      liveChallengesWithoutHold: [],
    });
    await expectLedgerBalanced(wallet.app.db);
  });

  async function duel(stakeCents: number, balance = stakeCents) {
    const owner = await userWithBalance(wallet.app, balance);
    const challenged = await userWithBalance(wallet.app, balance);
    const challengeId = randomUUID();
    const snapshot = {
      challengeId,
      slug: `duel-${challengeId.slice(0, 8)}`,
      challengeName: 'Run a mile',
      rewardCents: stakeCents,
      ownerId: owner,
      challengedUserId: challenged,
      challengedEmail: null,
      challengeType: 'duel' as const,
    };
    const stake = {
      challengeId,
      amountCents: stakeCents,
      slug: snapshot.slug,
      challengeName: snapshot.challengeName,
    };
    return {
      owner,
      challenged,
      snapshot,
      holdOwner: () => escrow.hold({ ...stake, ownerId: owner }),
      holdChallenged: (staker = challenged) =>
        escrow.hold({ ...stake, ownerId: staker, party: 'challenged' }),
    };
  }
  type Duel = Awaited<ReturnType<typeof duel>>;

  async function publish(
    d: Duel,
    types: EventType[],
    options: { times?: number; outcome?: { owner: Outcome; challenged: Outcome } | null } = {},
  ) {
    const extra: Record<string, object> = {
      ChallengeCreated: { visibility: 'public', expiresAt: '2030-01-01T00:00:00.000Z' },
      ChallengeRefused: { reason: 'No time' },
      ChallengeCompleted: { judgedByReferee: false, duelOutcome: options.outcome },
      ChallengeFailed: { comment: null, duelOutcome: options.outcome },
      ChallengeVideoUploaded: { videoId: randomUUID(), performerId: d.owner },
    };
    const messages = types.flatMap((type) => {
      const event = newEvent(type as 'ChallengeAccepted', {
        aggregateId: d.snapshot.challengeId,
        actorId: d.owner,
        data: { ...d.snapshot, ...extra[type] },
      });
      const message = { key: d.snapshot.challengeId, value: JSON.stringify(event) };
      return Array.from({ length: options.times ?? 1 }, () => message);
    });
    await produceRaw(topicPrefix, TOPICS.challenge, messages);
    await waitForCaughtUp(topicPrefix, 'wallet', TOPICS.challenge);
  }

  const both = async (d: Duel) => ({
    owner: await balances(wallet.app, d.owner),
    challenged: await balances(wallet.app, d.challenged),
  });

  it("holds the challenged user's stake beside the owner's, once per staker", async () => {
    const d = await duel(500, 800);
    await d.holdOwner();
    await publish(d, ['ChallengeCreated']);
    const stakes = await Promise.all([d.holdChallenged(), d.holdChallenged()]);
    expect(stakes).toEqual([
      {
        challengeId: d.snapshot.challengeId,
        ownerId: d.challenged,
        amountCents: 500,
        status: 'held',
      },
      {
        challengeId: d.snapshot.challengeId,
        ownerId: d.challenged,
        amountCents: 500,
        status: 'held',
      },
    ]);
    expect(await both(d)).toEqual({
      owner: { available: 300, frozen: 500 },
      challenged: { available: 300, frozen: 500 },
    });
    // A third staker, or the owner staking as the challenged party, is refused.
    await expect(d.holdChallenged(randomUUID())).rejects.toMatchObject({
      identifier: 'invalid_input',
    });
    await expect(d.holdChallenged(d.owner)).rejects.toMatchObject({ identifier: 'invalid_input' });
    await publish(d, ['ChallengeAccepted', 'ChallengeCancelled']);
    expect(await both(d)).toEqual({
      owner: { available: 800, frozen: 0 },
      challenged: { available: 800, frozen: 0 },
    });
  });

  it("answers insufficient_funds for the challenged user's stake and moves nothing", async () => {
    const d = await duel(500, 800);
    const poor = await userWithBalance(wallet.app, 499);
    await d.holdOwner();
    await publish(d, ['ChallengeCreated']);
    await expect(d.holdChallenged(poor)).rejects.toMatchObject({
      identifier: 'insufficient_funds',
    });
    expect(await balances(wallet.app, poor)).toEqual({ available: 499, frozen: 0 });
    expect(
      await wallet.app.db.escrowHold.count({ where: { challengeId: d.snapshot.challengeId } }),
    ).toBe(1);
    await publish(d, ['ChallengeExpired']);
  });

  it.each<[string, { owner: Outcome; challenged: Outcome }, EventType, number, number]>([
    [
      'the owner wins',
      { owner: 'completed', challenged: 'failed' },
      'ChallengeCompleted',
      1400,
      200,
    ],
    [
      'the challenged user wins',
      { owner: 'failed', challenged: 'completed' },
      'ChallengeCompleted',
      200,
      1400,
    ],
    [
      'both complete: each keeps their own',
      { owner: 'completed', challenged: 'completed' },
      'ChallengeCompleted',
      800,
      800,
    ],
    [
      'both fail: each gets their own back',
      { owner: 'failed', challenged: 'failed' },
      'ChallengeFailed',
      800,
      800,
    ],
  ])(
    '%s, once whatever Kafka redelivers',
    async (_name, outcome, ending, ownerAfter, challengedAfter) => {
      const d = await duel(600, 800);
      await d.holdOwner();
      await publish(d, ['ChallengeCreated']);
      await d.holdChallenged();
      await publish(d, ['ChallengeAccepted', 'ChallengeVideoUploaded'], { times: 2 });
      await publish(d, [ending], { times: 3, outcome });
      // A late contradictory event moves nothing.
      await publish(d, ['ChallengeCancelled']);
      expect(await both(d)).toEqual({
        owner: { available: ownerAfter, frozen: 0 },
        challenged: { available: challengedAfter, frozen: 0 },
      });
      const kinds = await wallet.app.db.ledgerTransfer.findMany({
        where: { challengeId: d.snapshot.challengeId },
        select: { kind: true },
      });
      expect(kinds).toHaveLength(4); // two holds, two settlements
    },
  );

  it.each<EventType>(['ChallengeRefused', 'ChallengeCancelled', 'ChallengeExpired'])(
    '%s gives each stake back to whoever staked it',
    async (ending) => {
      const d = await duel(300, 300);
      await d.holdOwner();
      await publish(d, ['ChallengeCreated']);
      await d.holdChallenged();
      await publish(d, [ending], { times: 2 });
      expect(await both(d)).toEqual({
        owner: { available: 300, frozen: 0 },
        challenged: { available: 300, frozen: 0 },
      });
    },
  );

  it('keeps both stakes held when a duel ends without its outcome', async () => {
    const d = await duel(400, 400);
    await d.holdOwner();
    await publish(d, ['ChallengeCreated']);
    await d.holdChallenged();
    await publish(d, ['ChallengeAccepted']);
    await publish(d, ['ChallengeCompleted'], { outcome: null });
    expect(await both(d)).toEqual({
      owner: { available: 0, frozen: 400 },
      challenged: { available: 0, frozen: 400 },
    });
    // The consistent end (the redelivered outcome) settles it.
    await publish(d, ['ChallengeCompleted'], {
      outcome: { owner: 'failed', challenged: 'completed' },
    });
    expect(await both(d)).toEqual({
      owner: { available: 0, frozen: 0 },
      challenged: { available: 800, frozen: 0 },
    });
  });

  it("voids the challenged user's stake when the acceptance did not happen, and holds it again if it did", async () => {
    const d = await duel(250, 250);
    await d.holdOwner();
    await publish(d, ['ChallengeCreated']);
    await d.holdChallenged();
    // Wallet has seen the duel open only: the challenged party's stake can still be given back.
    expect(await escrow.release(d.snapshot.challengeId, 'challenged')).toMatchObject({
      ownerId: d.challenged,
      status: 'released',
    });
    expect(await balances(wallet.app, d.challenged)).toEqual({ available: 250, frozen: 0 });
    // The acceptance committed after all: its event takes the stake again, once.
    await publish(d, ['ChallengeAccepted'], { times: 2 });
    expect(await balances(wallet.app, d.challenged)).toEqual({ available: 0, frozen: 250 });
    // Once accepted, the release is refused: the duel's events settle the stake.
    await expect(escrow.release(d.snapshot.challengeId, 'challenged')).rejects.toMatchObject({
      identifier: 'invalid_action',
    });
    // The owner's reward is still refused too (ADR 0015).
    await expect(escrow.release(d.snapshot.challengeId)).rejects.toMatchObject({
      identifier: 'invalid_action',
    });
    await publish(d, ['ChallengeCompleted'], {
      outcome: { owner: 'completed', challenged: 'completed' },
    });
    expect(await both(d)).toEqual({
      owner: { available: 250, frozen: 0 },
      challenged: { available: 250, frozen: 0 },
    });
  });

  it("reports a live duel whose challenged user's stake is not held", async () => {
    const d = await duel(300, 300);
    await d.holdOwner();
    await publish(d, ['ChallengeCreated']);
    await d.holdChallenged();
    // The acceptance looked failed: the stake was given back, and the challenged user spent it.
    await escrow.release(d.snapshot.challengeId, 'challenged');
    const spent = randomUUID();
    await escrow.hold({
      challengeId: spent,
      ownerId: d.challenged,
      amountCents: 300,
      slug: 'other-dare',
      challengeName: 'Another dare',
    });
    // Then the acceptance arrives after all: the stake cannot be taken again, and it is reported.
    await publish(d, ['ChallengeAccepted']);
    expect(await balances(wallet.app, d.challenged)).toEqual({ available: 0, frozen: 300 });
    const report = await graphql(wallet.url, RECONCILIATION, {}, STAFF);
    expect(report.data?.escrowReconciliation.liveChallengesWithoutHold).toEqual([
      { challengeId: d.snapshot.challengeId, challengeStatus: 'accepted' },
    ]);
    expect(report.data?.escrowReconciliation.holdsWithoutLiveChallenge).toEqual([
      { challengeId: spent, challengeStatus: null },
    ]);
    // A person decides; here the duel expires and the other hold is given back.
    await publish(d, ['ChallengeExpired']);
    await escrow.release(spent);
    expect(await both(d)).toEqual({
      owner: { available: 300, frozen: 0 },
      challenged: { available: 300, frozen: 0 },
    });
  });
});
