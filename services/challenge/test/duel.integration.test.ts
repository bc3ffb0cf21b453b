import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent } from '@challenge/events';
import { eventually, graphql, produceRaw, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSchedulerOnce } from '../src/domain/scheduler.ts';
import {
  registerUser,
  startPlatform,
  topUp,
  walletOf,
  type Platform,
  type TestUser,
} from './support/platform.ts';

/** Duels (docs/adr/0032): both stake the reward, both perform, each judges the other's video. */
const WINDOW_MS = 7 * 86_400_000;
const REWARD = 400;
const STATUS = 'status { success identifier message }';
const FIELDS = `slug status challengeType judgedByReferee proofPhrase
  sides { performer { id } status reason judgedByReferee challengeFailedComment judgingDeadline }`;
const CREATE = `mutation ($input: CreateChallengeInput!) {
  createChallenge(input: $input) { ${STATUS} challenges { slug } } }`;
const UPDATE_STATUS = `mutation ($input: UpdateChallengeStatusInput!) {
  updateChallengeStatus(input: $input) { ${STATUS} challenge { ${FIELDS} } } }`;
const BY_SLUG = `query ($slug: String!) {
  getChallengeBySlug(input: { slug: $slug }) { ${STATUS} challenge { ${FIELDS} } } }`;
const CANCEL = `mutation ($slug: String!) { cancelChallenge(slug: $slug) { ${STATUS} } }`;

let platform: Platform;
const referee = { id: randomUUID(), roles: ['user' as const, 'referee' as const] };
let stranger: TestUser;

beforeAll(async () => {
  platform = await startPlatform(uniqueTopicPrefix(), { judgingWindowMs: WINDOW_MS });
  stranger = await registerUser(platform);
});
afterAll(() => platform?.stop());

async function call(query: string, variables: Record<string, unknown>, who?: { id: string }) {
  const { data, errors } = await graphql(platform.challenge.url, query, variables, who);
  expect(errors).toBeUndefined();
  const [result] = Object.values(data!);
  return result as typeof result & { status: { success: boolean; identifier: string } };
}

/** Two fresh adults, each with `balance` cents, so that wallets say only what this test did. */
async function pair(ownerBalance = 1000, challengedBalance = 1000) {
  const [owner, challenged] = await Promise.all([registerUser(platform), registerUser(platform)]);
  await topUp(platform, owner, ownerBalance);
  if (challengedBalance > 0) await topUp(platform, challenged, challengedBalance);
  else await eventually(() => walletOf(platform, challenged));
  return { owner, challenged };
}

async function newDuel(owner: TestUser, challenged: TestUser): Promise<string> {
  const result = await call(
    CREATE,
    {
      input: {
        challengeName: 'Ten push-ups on one hand',
        challengeDescription: 'Both of us, on video.',
        challengeReward: REWARD,
        tags: ['strength'],
        acceptCredit: true,
        challengeType: 'duel',
        challengedUsername: challenged.username,
      },
    },
    owner,
  );
  expect(result.status.identifier).toBe('ok');
  return result.challenges[0].slug;
}

const setStatus = (who: { id: string }, slug: string, status: string, reason?: string) =>
  call(UPDATE_STATUS, { input: { slug, status, reason } }, who);

const rowOf = (slug: string) =>
  platform.challenge.app.db.challenge.findUniqueOrThrow({ where: { slug } });

const eventsOf = async (slug: string) => {
  const { id } = await rowOf(slug);
  const rows = await platform.challenge.app.db.outboxEvent.findMany({
    where: { key: id },
    orderBy: { seq: 'asc' },
  });
  return rows.map((row) => ({ type: row.type, data: (row.payload as { data: object }).data }));
};

/** media's VideoProcessed for one party's video, through the real consumer. */
async function videoProcessed(slug: string, uploadedBy: TestUser) {
  const { id } = await rowOf(slug);
  const videoId = randomUUID();
  const event = newEvent('VideoProcessed', {
    aggregateId: videoId,
    actorId: uploadedBy.id,
    data: { videoId, challengeId: id, uploadedBy: uploadedBy.id },
  });
  await produceRaw(platform.topicPrefix, TOPICS.media, [
    { key: videoId, value: JSON.stringify(event) },
  ]);
  await eventually(async () => {
    const side = await platform.challenge.app.db.challengeSide.findUniqueOrThrow({
      where: { challengeId_performerId: { challengeId: id, performerId: uploadedBy.id } },
    });
    expect(side.status).not.toBe('awaiting_video');
  });
}

/**
 * moderation's RefereeDecided for one side (the case's performer), through the real consumer: the
 * only way a referee's decision reaches a duel (docs/adr/0070).
 */
async function refereeDecided(
  slug: string,
  performer: TestUser,
  decision: 'approved' | 'failed',
  comment: string | null = null,
) {
  const { id } = await rowOf(slug);
  const event = newEvent('RefereeDecided', {
    aggregateId: id,
    actorId: referee.id,
    data: {
      caseId: randomUUID(),
      challengeId: id,
      refereeId: referee.id,
      decision,
      comment,
      performerId: performer.id,
    },
  });
  await produceRaw(platform.topicPrefix, TOPICS.moderation, [
    { key: id, value: JSON.stringify(event) },
  ]);
  await eventually(async () =>
    expect(
      await platform.challenge.app.db.processedEvent.count({ where: { eventId: event.id } }),
    ).toBe(1),
  );
  return platform.challenge.app.db.challenge.findUniqueOrThrow({ where: { id } });
}

const sideOf = async (slug: string, who: TestUser, viewer: { id: string }) => {
  const { challenge } = await call(BY_SLUG, { slug }, viewer);
  return challenge!.sides.find(
    (side: { performer: { id: string } }) => side.performer.id === who.id,
  );
};

/** Both wallets once every settlement has landed. */
async function walletsSettle(
  owner: TestUser,
  challenged: TestUser,
  expected: { owner: number; challenged: number },
) {
  await eventually(async () => {
    const [o, c] = await Promise.all([walletOf(platform, owner), walletOf(platform, challenged)]);
    expect({ owner: o, challenged: c }).toEqual({
      owner: { availableAmount: expected.owner, freezeAmount: 0 },
      challenged: { availableAmount: expected.challenged, freezeAmount: 0 },
    });
  }, 20_000);
}

describe('a duel', () => {
  it("holds the challenged user's stake on acceptance; refused with insufficient_funds, nothing changes", async () => {
    const { owner, challenged } = await pair(1000, 0);
    const slug = await newDuel(owner, challenged);
    expect((await call(BY_SLUG, { slug }, owner)).challenge).toMatchObject({
      status: 'open',
      challengeType: 'duel',
      sides: [],
    });
    const refused = await setStatus(challenged, slug, 'accepted');
    expect(refused.status.identifier).toBe('insufficient_funds');
    expect((await rowOf(slug)).status).toBe('open');
    expect((await eventsOf(slug)).map((event) => event.type)).toEqual(['ChallengeCreated']);
    expect(await walletOf(platform, challenged)).toEqual({ availableAmount: 0, freezeAmount: 0 });

    await topUp(platform, challenged, 500);
    const accepted = await setStatus(challenged, slug, 'accepted');
    expect(accepted.status.identifier).toBe('ok');
    expect(accepted.challenge).toMatchObject({
      status: 'accepted',
      proofPhrase: expect.stringMatching(/^[a-z]+ [a-z]+ \d{2}$/),
    });
    const { challenge } = await call(BY_SLUG, { slug }, challenged);
    expect(challenge!.sides).toEqual([
      expect.objectContaining({ performer: { id: owner.id }, status: 'awaiting_video' }),
      expect.objectContaining({ performer: { id: challenged.id }, status: 'awaiting_video' }),
    ]);
    expect(await walletOf(platform, challenged)).toEqual({
      availableAmount: 100,
      freezeAmount: 400,
    });
    expect(await walletOf(platform, owner)).toEqual({ availableAmount: 600, freezeAmount: 400 });
    // Nobody can cancel an accepted duel: the owner's cancel is refused.
    expect((await call(CANCEL, { slug }, owner)).status.identifier).toBe('invalid_status_change');
    // Expired without any video: each stake goes back to whoever staked it.
    const expiredAt = new Date((await rowOf(slug)).expirationDate.getTime() + 1000);
    await runSchedulerOnce(
      platform.challenge.app.db,
      WINDOW_MS,
      platform.challenge.runtime.logger,
      expiredAt,
    );
    expect((await rowOf(slug)).status).toBe('expired');
    await walletsSettle(owner, challenged, { owner: 1000, challenged: 500 });
  });

  it('makes one transition and takes one stake of concurrent accepts', async () => {
    const { owner, challenged } = await pair(1000, 1000);
    const slug = await newDuel(owner, challenged);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => setStatus(challenged, slug, 'accepted')),
    );
    expect(results.map((result) => result.status.identifier).sort()).toEqual([
      'ok',
      ...Array(4).fill('status_unchanged'),
    ]);
    expect((await eventsOf(slug)).map((event) => event.type)).toEqual([
      'ChallengeCreated',
      'ChallengeAccepted',
    ]);
    expect(await walletOf(platform, challenged)).toEqual({
      availableAmount: 600,
      freezeAmount: 400,
    });
    // Accepting a cancelled duel is refused before any stake is taken.
    const other = await newDuel(owner, challenged);
    expect((await call(CANCEL, { slug: other }, owner)).status.identifier).toBe('ok');
    expect((await setStatus(challenged, other, 'accepted')).status.identifier).toBe(
      'invalid_status_change',
    );
    expect(await walletOf(platform, challenged)).toEqual({
      availableAmount: 600,
      freezeAmount: 400,
    });
  });

  it('one side fails by the referee, the other completes: the winner takes both stakes', async () => {
    const { owner, challenged } = await pair(1000, 1000);
    const slug = await newDuel(owner, challenged);
    await setStatus(challenged, slug, 'accepted');
    // Nothing to judge before a video is in.
    expect((await setStatus(owner, slug, 'completed')).status.identifier).toBe(
      'invalid_status_change',
    );
    await videoProcessed(slug, challenged);
    expect((await rowOf(slug)).status).toBe('review');
    expect(await sideOf(slug, challenged, owner)).toMatchObject({
      status: 'review',
      judgingDeadline: expect.any(String),
    });
    // Strangers judge nothing; the owner cannot fail a side (a referee's call).
    expect((await setStatus(stranger, slug, 'completed')).status.identifier).toBe(
      'invalid_challenge_owner',
    );
    expect((await setStatus(owner, slug, 'failed', 'no')).status.identifier).toBe('invalid_action');
    // The owner rejects the challenged user's video: a referee decides that side.
    expect((await setStatus(owner, slug, 'referee')).status.message).toBe(
      'Please provide a reason',
    );
    const rejected = await setStatus(owner, slug, 'referee', 'Those were knee push-ups.');
    expect(rejected.challenge).toMatchObject({ status: 'referee' });
    // The owner's video: the challenged user judges it and approves.
    await videoProcessed(slug, owner);
    // The challenged user's "completed" judges the owner's side, never their own.
    const approved = await setStatus(challenged, slug, 'completed');
    expect(approved.status.identifier).toBe('ok');
    expect(approved.challenge).toMatchObject({ status: 'referee' });
    expect(await sideOf(slug, owner, challenged)).toMatchObject({ status: 'completed' });
    expect(await sideOf(slug, challenged, challenged)).toMatchObject({
      status: 'referee',
      reason: 'Those were knee push-ups.',
    });
    // A repeated approval is status_unchanged, not a second judgement.
    expect((await setStatus(challenged, slug, 'completed')).status.identifier).toBe(
      'status_unchanged',
    );
    const failed = await refereeDecided(slug, challenged, 'failed', 'Knees on the floor.');
    expect(failed).toMatchObject({ status: 'completed', judgedByReferee: true });
    const events = await eventsOf(slug);
    expect(events.map((event) => event.type)).toEqual([
      'ChallengeCreated',
      'ChallengeAccepted',
      'ChallengeVideoUploaded',
      'ChallengeSentToReferee',
      'ChallengeVideoUploaded',
      'DuelSideJudged',
      'ChallengeCompleted',
    ]);
    expect(events[2]!.data).toMatchObject({ performerId: challenged.id, challengeType: 'duel' });
    expect(events[5]!.data).toMatchObject({ performerId: owner.id, outcome: 'completed' });
    expect(events[6]!.data).toMatchObject({
      duelOutcome: { owner: 'completed', challenged: 'failed' },
    });
    await walletsSettle(owner, challenged, { owner: 1400, challenged: 600 });
  });

  it("both complete (one by the judge's silence): each keeps their own", async () => {
    const { owner, challenged } = await pair(1000, 1000);
    const slug = await newDuel(owner, challenged);
    await setStatus(challenged, slug, 'accepted');
    await videoProcessed(slug, owner);
    await videoProcessed(slug, challenged);
    expect((await setStatus(owner, slug, 'completed')).challenge).toMatchObject({
      status: 'review',
    });
    const { logger } = platform.challenge.runtime;
    const db = platform.challenge.app.db;
    expect(await runSchedulerOnce(db, WINDOW_MS, logger)).toBe(0);
    const later = new Date(Date.now() + WINDOW_MS + 60_000);
    expect(await runSchedulerOnce(db, WINDOW_MS, logger, later)).toBeGreaterThanOrEqual(1);
    const done = (await call(BY_SLUG, { slug }, owner)).challenge!;
    expect(done).toMatchObject({ status: 'completed', judgedByReferee: false });
    expect(done.sides.map((side: { status: string }) => side.status)).toEqual([
      'completed',
      'completed',
    ]);
    expect((await eventsOf(slug)).at(-1)).toMatchObject({
      type: 'ChallengeCompleted',
      data: { duelOutcome: { owner: 'completed', challenged: 'completed' } },
    });
    await walletsSettle(owner, challenged, { owner: 1000, challenged: 1000 });
  });

  it('both parties judging at the same moment end the duel once', async () => {
    const { owner, challenged } = await pair(1000, 1000);
    const slug = await newDuel(owner, challenged);
    await setStatus(challenged, slug, 'accepted');
    await videoProcessed(slug, owner);
    await videoProcessed(slug, challenged);
    // A redelivered VideoProcessed changes nothing (its side is in review already).
    await videoProcessed(slug, owner);
    const results = await Promise.all([
      setStatus(owner, slug, 'completed'),
      setStatus(challenged, slug, 'completed'),
      setStatus(owner, slug, 'completed'),
      setStatus(challenged, slug, 'completed'),
    ]);
    expect(results.map((result) => result.status.identifier).sort()).toEqual([
      'ok',
      'ok',
      'status_unchanged',
      'status_unchanged',
    ]);
    const types = (await eventsOf(slug)).map((event) => event.type);
    expect(types.filter((type) => type === 'ChallengeVideoUploaded')).toHaveLength(2);
    expect(types.slice(-2)).toEqual(['DuelSideJudged', 'ChallengeCompleted']);
    await walletsSettle(owner, challenged, { owner: 1000, challenged: 1000 });
  });

  it('past the expiration date a side without a video fails; the referee decides the other', async () => {
    const { owner, challenged } = await pair(1000, 1000);
    const slug = await newDuel(owner, challenged);
    await setStatus(challenged, slug, 'accepted');
    await videoProcessed(slug, owner);
    await setStatus(challenged, slug, 'referee', 'Not ten.');
    const expiredAt = new Date((await rowOf(slug)).expirationDate.getTime() + 1000);
    const { logger } = platform.challenge.runtime;
    await runSchedulerOnce(platform.challenge.app.db, WINDOW_MS, logger, expiredAt);
    expect(await sideOf(slug, challenged, owner)).toMatchObject({ status: 'failed' });
    expect((await rowOf(slug)).status).toBe('referee');
    // A late video of the failed side changes nothing.
    const { id } = await rowOf(slug);
    const videoId = randomUUID();
    await produceRaw(platform.topicPrefix, TOPICS.media, [
      {
        key: videoId,
        value: JSON.stringify(
          newEvent('VideoProcessed', {
            aggregateId: videoId,
            actorId: challenged.id,
            data: { videoId, challengeId: id, uploadedBy: challenged.id },
          }),
        ),
      },
    ]);
    // The referee approves the owner's side (its case): the owner wins.
    const decided = await refereeDecided(slug, owner, 'approved');
    expect(decided).toMatchObject({ status: 'completed', judgedByReferee: true });
    expect(await sideOf(slug, challenged, owner)).toMatchObject({ status: 'failed' });
    await walletsSettle(owner, challenged, { owner: 1400, challenged: 600 });
  });
});
