import { randomUUID } from 'node:crypto';
import { createEscrowClient, type AuthUser, type EscrowClient } from '@challenge/kit';
import {
  TEST_INTERNAL_API_TOKEN,
  eventually,
  graphql,
  uniqueTopicPrefix,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChallenges, type CreateChallengeInput } from '../src/domain/create.ts';
import { STALE_DRAFT_MS, sweepStaleDrafts } from '../src/domain/scheduler.ts';
import { updateChallengeStatus } from '../src/domain/status.ts';
import {
  registerUser,
  settledWalletOf,
  startPlatform,
  topUp,
  walletOf,
  type Platform,
  type TestUser,
} from './support/platform.ts';

/**
 * Issue 18, points 10 and 12: the creation saga and a duel's acceptance when wallet's answer is
 * lost after wallet committed the hold (a timeout, a reset connection), and when the acceptance
 * fails after its hold. The escrow client is the real one against the real wallet, with a fetch
 * that loses answers on purpose.
 */
const STATUS = 'status { success identifier message }';
const CREATE = `mutation ($input: CreateChallengeInput!) {
  createChallenge(input: $input) { ${STATUS} challenges { slug } } }`;
const UPDATE_STATUS = `mutation ($input: UpdateChallengeStatusInput!) {
  updateChallengeStatus(input: $input) { ${STATUS} challenge { status sides { status } } } }`;

let platform: Platform;

beforeAll(async () => {
  platform = await startPlatform(uniqueTopicPrefix());
});
afterAll(() => platform?.stop());

const db = () => platform.challenge.app.db;
const logger = () => platform.challenge.runtime.logger;

/** An adult with `cents` in their wallet. */
async function adultWith(cents: number): Promise<TestUser> {
  const user = await registerUser(platform);
  await topUp(platform, user, cents);
  return user;
}

const actor = (user: TestUser): AuthUser => ({
  id: user.id,
  roles: ['user'],
  tokenId: randomUUID(),
  issuedAt: Math.floor(Date.now() / 1000),
  expiresAt: Math.floor(Date.now() / 1000) + 3600,
  sessionVersion: 0,
});

type Call = { kind: 'hold' | 'release'; index: number };

/**
 * The real escrow client whose fetch, for the calls `lose` picks, either lets wallet answer and
 * then throws as a reset connection would (`answer-lost`), or never reaches wallet at all
 * (`unreachable`).
 */
function escrowLosing(
  lose: (call: Call) => 'answer-lost' | 'unreachable' | null,
): EscrowClient & { calls: Call[] } {
  const calls: Call[] = [];
  const counts = { hold: 0, release: 0 };
  const losingFetch: typeof fetch = async (input, init) => {
    const kind = String(input).endsWith('/release') ? 'release' : 'hold';
    const call = { kind, index: counts[kind]++ } as Call;
    calls.push(call);
    const fault = lose(call);
    if (fault === 'unreachable') throw new TypeError('fetch failed: connect ECONNREFUSED');
    const response = await fetch(input, init);
    if (fault === 'answer-lost') {
      await response.arrayBuffer(); // wallet answered (and committed); the answer goes nowhere
      throw new TypeError('fetch failed: socket hang up');
    }
    return response;
  };
  const client = createEscrowClient({
    baseUrl: platform.wallet.url,
    token: TEST_INTERNAL_API_TOKEN,
    fetch: losingFetch,
  });
  return Object.assign(client, { calls });
}

const input = (overrides: Partial<CreateChallengeInput>): CreateChallengeInput => ({
  challengeName: 'Balance a spoon on your nose',
  challengeDescription: 'For ten seconds, on video.',
  challengeReward: 500,
  tags: ['balance'],
  acceptCredit: true,
  ...overrides,
});

const rowsOf = (ownerId: string) => db().challenge.findMany({ where: { ownerId } });

const create = (escrow: EscrowClient, owner: TestUser, overrides: Partial<CreateChallengeInput>) =>
  createChallenges(
    { db: db(), escrow, rules: platform.challenge.app.rules, logger: logger() },
    actor(owner),
    input(overrides),
  );

describe('createChallenge when a hold answer is lost', () => {
  it('releases a hold whose answer was lost and removes its draft once the release is confirmed', async () => {
    const [owner, friend] = [await adultWith(2_000), await registerUser(platform)];
    const before = await settledWalletOf(platform, owner);
    const escrow = escrowLosing((call) => (call.kind === 'hold' ? 'answer-lost' : null));
    await expect(
      create(escrow, owner, { challengedUsername: friend.username }),
    ).rejects.toMatchObject({ identifier: 'status_updated_failed_with_wallet_issue' });
    expect(await walletOf(platform, owner)).toEqual(before);
    expect(await rowsOf(owner.id)).toEqual([]);
  });

  it('keeps the draft while its release cannot be confirmed, and the stale-draft sweep finishes it', async () => {
    const [owner, friend] = [await adultWith(2_000), await registerUser(platform)];
    const before = await settledWalletOf(platform, owner);
    const escrow = escrowLosing((call) => (call.kind === 'hold' ? 'answer-lost' : 'unreachable'));
    await expect(
      create(escrow, owner, { challengedUsername: friend.username }),
    ).rejects.toMatchObject({ identifier: 'status_updated_failed_with_wallet_issue' });
    // Wallet still holds the reward: the draft is its trace, never listed.
    expect(await walletOf(platform, owner)).toEqual({
      availableAmount: before.availableAmount - 500,
      freezeAmount: before.freezeAmount + 500,
    });
    const [draft] = await rowsOf(owner.id);
    expect(draft).toMatchObject({ status: 'draft' });
    // Later the sweep (with a wallet that answers) releases it, and only then removes the draft.
    const later = new Date(Date.now() + STALE_DRAFT_MS + 60_000);
    await sweepStaleDrafts(db(), platform.challenge.app.escrow, logger(), later);
    expect(await walletOf(platform, owner)).toEqual(before);
    expect(await rowsOf(owner.id)).toEqual([]);
  });

  it('releases every hold of a failed invitation of several addresses, the lost one too', async () => {
    const owner = await adultWith(5_000);
    const before = await settledWalletOf(platform, owner);
    // The second address's hold is taken, but its answer is lost; the rest are never asked.
    const escrow = escrowLosing((call) =>
      call.kind === 'hold' && call.index === 1 ? 'answer-lost' : null,
    );
    const emails = [1, 2, 3].map((n) => `guest${n}-${randomUUID().slice(0, 6)}@example.com`);
    await expect(
      create(escrow, owner, { challengedUserEmailsString: emails.join(', ') }),
    ).rejects.toMatchObject({ identifier: 'status_updated_failed_with_wallet_issue' });
    expect(await walletOf(platform, owner)).toEqual(before);
    expect(await rowsOf(owner.id)).toEqual([]);
    // Every draft was released: the one never held answers not_found, which counts as done.
    expect(escrow.calls.filter((call) => call.kind === 'release')).toHaveLength(3);
  });
});

describe("a duel's acceptance that fails after its hold", () => {
  const REWARD = 400;

  async function openDuel() {
    const [owner, challenged] = [await adultWith(1_000), await adultWith(1_000)];
    const { data } = await graphql(
      platform.challenge.url,
      CREATE,
      {
        input: {
          ...input({ challengeReward: REWARD }),
          challengeType: 'duel',
          challengedUsername: challenged.username,
        },
      },
      owner,
    );
    expect(data?.createChallenge.status.identifier).toBe('ok');
    return { owner, challenged, slug: data!.createChallenge.challenges[0].slug as string };
  }

  const accept = async (slug: string, who: TestUser) => {
    const { data, errors } = await graphql(
      platform.challenge.url,
      UPDATE_STATUS,
      { input: { slug, status: 'accepted' } },
      who,
    );
    expect(errors).toBeUndefined();
    return data!.updateChallengeStatus;
  };

  it('gives the stake back when the hold answer is lost, and a second acceptance holds it once', async () => {
    const { challenged, slug } = await openDuel();
    const escrow = escrowLosing((call) => (call.kind === 'hold' ? 'answer-lost' : null));
    await expect(
      updateChallengeStatus({ db: db(), escrow, logger: logger() }, actor(challenged), {
        slug,
        status: 'accepted',
      }),
    ).rejects.toMatchObject({ identifier: 'status_updated_failed_with_wallet_issue' });
    expect(await walletOf(platform, challenged)).toEqual({
      availableAmount: 1_000,
      freezeAmount: 0,
    });
    expect((await accept(slug, challenged)).status.identifier).toBe('ok');
    expect(await walletOf(platform, challenged)).toEqual({
      availableAmount: 1_000 - REWARD,
      freezeAmount: REWARD,
    });
  });

  it('gives back the stake of an acceptance that died after its hold once the attempt is stale, and the duel can still be accepted (ADR 91)', async () => {
    const { challenged, slug } = await openDuel();
    const { id } = await db().challenge.findUniqueOrThrow({ where: { slug } });
    const trigger = `fail_acceptance_${id.replaceAll('-', '')}`;
    // The process dies between the hold and the acceptance: its transition never commits (a
    // forced fault) and its give-back never reaches wallet.
    await db().$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION fail_acceptance() RETURNS trigger LANGUAGE plpgsql AS
      'BEGIN RAISE EXCEPTION ''forced failure of the acceptance''; END'`);
    await db().$executeRawUnsafe(`
      CREATE TRIGGER ${trigger} BEFORE UPDATE ON challenges
      FOR EACH ROW WHEN (NEW.id = '${id}' AND NEW.status = 'accepted')
      EXECUTE FUNCTION fail_acceptance()`);
    const escrow = escrowLosing((call) => (call.kind === 'release' ? 'unreachable' : null));
    await expect(
      updateChallengeStatus({ db: db(), escrow, logger: logger() }, actor(challenged), {
        slug,
        status: 'accepted',
      }),
    ).rejects.toThrow();
    await db().$executeRawUnsafe(`DROP TRIGGER ${trigger} ON challenges`);
    const held = { availableAmount: 1_000 - REWARD, freezeAmount: REWARD };
    expect(await walletOf(platform, challenged)).toEqual(held);
    expect((await db().challenge.findUniqueOrThrow({ where: { slug } })).status).toBe('open');

    // A pass while the attempt may still be at work leaves it; once it is stale, it goes back.
    const { escrow: realEscrow } = platform.challenge.app;
    await sweepStaleDrafts(db(), realEscrow, logger(), new Date());
    expect(await walletOf(platform, challenged)).toEqual(held);
    await sweepStaleDrafts(
      db(),
      realEscrow,
      logger(),
      new Date(Date.now() + STALE_DRAFT_MS + 60_000),
    );
    expect(await walletOf(platform, challenged)).toEqual({
      availableAmount: 1_000,
      freezeAmount: 0,
    });

    // The duel is still open: a new acceptance holds the stake once.
    expect((await accept(slug, challenged)).status.identifier).toBe('ok');
    await eventually(async () => expect(await walletOf(platform, challenged)).toEqual(held));
  });

  it('accepts on a retry after the acceptance failed behind its hold, with exactly one stake held', async () => {
    const { challenged, slug } = await openDuel();
    const { id } = await db().challenge.findUniqueOrThrow({ where: { slug } });
    // The status update of this duel's acceptance fails once the stake is held (a forced fault).
    await db().$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION fail_acceptance() RETURNS trigger LANGUAGE plpgsql AS
      'BEGIN RAISE EXCEPTION ''forced failure of the acceptance''; END'`);
    await db().$executeRawUnsafe(`
      CREATE TRIGGER fail_acceptance_${id.replaceAll('-', '')} BEFORE UPDATE ON challenges
      FOR EACH ROW WHEN (NEW.id = '${id}' AND NEW.status = 'accepted')
      EXECUTE FUNCTION fail_acceptance()`);
    const failed = await accept(slug, challenged);
    expect(failed.status.success).toBe(false);
    await db().$executeRawUnsafe(
      `DROP TRIGGER fail_acceptance_${id.replaceAll('-', '')} ON challenges`,
    );
    // The failed attempt's stake went back; the duel is still open.
    expect(await walletOf(platform, challenged)).toEqual({
      availableAmount: 1_000,
      freezeAmount: 0,
    });
    expect((await db().challenge.findUniqueOrThrow({ where: { slug } })).status).toBe('open');

    const accepted = await accept(slug, challenged);
    expect(accepted).toMatchObject({
      status: { success: true },
      challenge: {
        status: 'accepted',
        sides: [{ status: 'awaiting_video' }, { status: 'awaiting_video' }],
      },
    });
    expect(await walletOf(platform, challenged)).toEqual({
      availableAmount: 1_000 - REWARD,
      freezeAmount: REWARD,
    });
    // A repeated click changes nothing and holds nothing more.
    expect((await accept(slug, challenged)).status.identifier).toBe('status_unchanged');
    await eventually(async () =>
      expect(await walletOf(platform, challenged)).toEqual({
        availableAmount: 1_000 - REWARD,
        freezeAmount: REWARD,
      }),
    );
  });
});
