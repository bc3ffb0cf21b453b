import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent, type EventType } from '@challenge/events';
import { createEscrowClient, type EscrowClient } from '@challenge/kit';
import {
  deleteTopics,
  eventually,
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

/**
 * Issue 18, points 10 to 12: a hold whose answer was lost, a stake held while its challenge's
 * end is being settled, and a duel acceptance tried again after a failed one.
 */
describe('escrow under lost answers, races and retried acceptances', () => {
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

  async function duel(stakeCents: number) {
    const owner = await userWithBalance(wallet.app, stakeCents);
    const challenged = await userWithBalance(wallet.app, stakeCents);
    const challengeId = randomUUID();
    const snapshot = {
      challengeId,
      slug: `duel-${challengeId.slice(0, 8)}`,
      challengeName: 'Juggle three eggs',
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
      holdChallenged: (attempt?: string) =>
        escrow.hold({ ...stake, ownerId: challenged, party: 'challenged', attempt }),
    };
  }
  type Duel = Awaited<ReturnType<typeof duel>>;

  function eventOf(d: Duel, type: EventType) {
    const extra: Record<string, object> = {
      ChallengeCreated: { visibility: 'public', expiresAt: '2030-01-01T00:00:00.000Z' },
    };
    return newEvent(type as 'ChallengeAccepted', {
      aggregateId: d.snapshot.challengeId,
      actorId: d.owner,
      data: { ...d.snapshot, ...extra[type] },
    });
  }

  async function produce(d: Duel, types: EventType[]) {
    await produceRaw(
      topicPrefix,
      TOPICS.challenge,
      types.map((type) => ({
        key: d.snapshot.challengeId,
        value: JSON.stringify(eventOf(d, type)),
      })),
    );
  }

  async function publish(d: Duel, types: EventType[]) {
    await produce(d, types);
    await waitForCaughtUp(topicPrefix, 'wallet', TOPICS.challenge);
  }

  /** Backends of this database waiting for a lock (a row, a transaction or an advisory lock). */
  async function waitingForLocks(): Promise<number> {
    const [row] = await wallet.app.db.$queryRaw<{ waiting: bigint }[]>`
      SELECT COUNT(*) AS waiting FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE NOT l.granted AND a.datname = current_database()`;
    return Number(row?.waiting ?? 0n);
  }

  it('refuses a hold that arrives after the release of its draft: a lost answer never leaves money held', async () => {
    const owner = await userWithBalance(wallet.app, 900);
    const challengeId = randomUUID();
    // Challenge gave up on the hold (its answer was lost) and released a draft that held nothing
    // yet; the hold request, still under way, reaches wallet afterwards.
    await expect(escrow.release(challengeId)).rejects.toMatchObject({ identifier: 'not_found' });
    await expect(
      escrow.hold({
        challengeId,
        ownerId: owner,
        amountCents: 900,
        slug: 'late-hold',
        challengeName: 'A late hold',
      }),
    ).rejects.toMatchObject({ identifier: 'invalid_action' });
    expect(await balances(wallet.app, owner)).toEqual({ available: 900, frozen: 0 });
    // The release stays an answer of its own: repeated, it is not_found again.
    await expect(escrow.release(challengeId)).rejects.toMatchObject({ identifier: 'not_found' });
  });

  it("settles a duel's stake held while the duel's end is being settled (the two serialised)", async () => {
    const d = await duel(400);
    await d.holdOwner();
    await publish(d, ['ChallengeCreated']);
    // A second connection holds the challenge's state row, so the settlement of the
    // cancellation stops after it read the holds and before it records the end.
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const blocker = wallet.app.db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM challenge_states
          WHERE challenge_id = ${d.snapshot.challengeId}::uuid FOR UPDATE`;
        locked();
        await gate;
      },
      { timeout: 60_000 },
    );
    await lockTaken;
    await produce(d, ['ChallengeCancelled']);
    await eventually(async () => expect(await waitingForLocks()).toBe(1));
    // Meanwhile the challenged user accepts: their stake is held while the end is in flight.
    const stake = d.holdChallenged(randomUUID()).then(
      (hold) => ({ hold }),
      (error: unknown) => ({ error }),
    );
    let done = false;
    void stake.then(() => (done = true));
    // Either the hold finished (it did not wait for the settlement) or it waits for it.
    await eventually(async () => expect(done || (await waitingForLocks()) === 2).toBe(true));
    letGo();
    await blocker;
    await waitForCaughtUp(topicPrefix, 'wallet', TOPICS.challenge);
    const outcome = await stake;
    // Whichever came first, no stake of a cancelled duel stays held.
    if ('hold' in outcome) {
      await eventually(async () =>
        expect(await balances(wallet.app, d.challenged)).toEqual({ available: 400, frozen: 0 }),
      );
    } else {
      expect(outcome.error).toMatchObject({ identifier: 'invalid_action' });
    }
    expect(await balances(wallet.app, d.challenged)).toEqual({ available: 400, frozen: 0 });
    expect(await balances(wallet.app, d.owner)).toEqual({ available: 400, frozen: 0 });
  });

  it("holds the challenged user's stake again for a new acceptance after a failed one, never for the voided one", async () => {
    const d = await duel(300);
    await d.holdOwner();
    await publish(d, ['ChallengeCreated']);
    const [first, second] = [randomUUID(), randomUUID()];
    await d.holdChallenged(first);
    // The first acceptance failed after its hold: challenge gives the stake back.
    expect(await escrow.release(d.snapshot.challengeId, 'challenged', first)).toMatchObject({
      status: 'released',
    });
    expect(await balances(wallet.app, d.challenged)).toEqual({ available: 300, frozen: 0 });
    // The same (retried) request of the voided attempt takes nothing.
    await expect(d.holdChallenged(first)).rejects.toMatchObject({ identifier: 'invalid_action' });
    // A new attempt holds the stake again, once however often it is repeated.
    const again = await Promise.all([d.holdChallenged(second), d.holdChallenged(second)]);
    expect(again.map((hold) => hold.status)).toEqual(['held', 'held']);
    expect(await balances(wallet.app, d.challenged)).toEqual({ available: 0, frozen: 300 });
    // A release by the voided attempt leaves the new attempt's stake alone: it holds nothing.
    await expect(escrow.release(d.snapshot.challengeId, 'challenged', first)).rejects.toMatchObject(
      { identifier: 'not_found' },
    );
    expect(await balances(wallet.app, d.challenged)).toEqual({ available: 0, frozen: 300 });
    await publish(d, ['ChallengeAccepted', 'ChallengeAccepted']);
    expect(await balances(wallet.app, d.challenged)).toEqual({ available: 0, frozen: 300 });
    // Once accepted, no attempt voids it; the duel's events settle both stakes.
    await expect(
      escrow.release(d.snapshot.challengeId, 'challenged', second),
    ).rejects.toMatchObject({ identifier: 'invalid_action' });
    await publish(d, ['ChallengeExpired']);
    expect(await balances(wallet.app, d.challenged)).toEqual({ available: 300, frozen: 0 });
    expect(await balances(wallet.app, d.owner)).toEqual({ available: 300, frozen: 0 });
    // Three movements of the stake in, two out: hold, void, hold again, release.
    const kinds = await wallet.app.db.ledgerTransfer.findMany({
      where: { challengeId: d.snapshot.challengeId, amountCents: 300n },
      select: { idempotencyKey: true },
      orderBy: { createdAt: 'asc' },
    });
    expect(kinds.map((row) => row.idempotencyKey)).toEqual([
      `escrow-hold:${d.snapshot.challengeId}`,
      `escrow-hold:${d.snapshot.challengeId}:challenged`,
      `escrow-void:${d.snapshot.challengeId}:challenged`,
      `escrow-hold:${d.snapshot.challengeId}:challenged:1`,
      expect.stringMatching(/^escrow-release:/),
      expect.stringMatching(/^escrow-release:/),
    ]);
  });
});
