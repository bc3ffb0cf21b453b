import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent, type DomainEvent } from '@challenge/events';
import { eventually, graphql, produceRaw, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactionRunner } from '../src/data/db.ts';
import { applyRefereeDecided } from '../src/domain/external.ts';
import {
  registerUser,
  startPlatform,
  topUp,
  walletOf,
  type Platform,
  type TestUser,
} from './support/platform.ts';

/**
 * A referee's decision reaches a challenge one way only: moderation's RefereeDecided, which names
 * the disputed side (docs/adr/0070). updateChallengeStatus refuses referees; a decision that does
 * not fit the side it names (repeated, stale, another performer, ambiguous) changes nothing.
 */
const REWARD = 400;
const STATUS = 'status { success identifier message }';
const FIELDS = `slug status judgedByReferee
  sides { performer { id } status judgedByReferee challengeFailedComment }`;
const CREATE = `mutation ($input: CreateChallengeInput!) {
  createChallenge(input: $input) { ${STATUS} challenges { slug } } }`;
const UPDATE_STATUS = `mutation ($input: UpdateChallengeStatusInput!) {
  updateChallengeStatus(input: $input) { ${STATUS} challenge { ${FIELDS} } } }`;

let platform: Platform;
const referee = { id: randomUUID(), roles: ['user' as const, 'referee' as const] };
const admin = { id: randomUUID(), roles: ['admin' as const] };

beforeAll(async () => {
  platform = await startPlatform(uniqueTopicPrefix());
});
afterAll(() => platform?.stop());

const db = () => platform.challenge.app.db;

async function call(query: string, variables: Record<string, unknown>, who?: { id: string }) {
  const { data, errors } = await graphql(platform.challenge.url, query, variables, who);
  expect(errors).toBeUndefined();
  const [result] = Object.values(data!);
  return result as typeof result & { status: { success: boolean; identifier: string } };
}

const setStatus = (
  who: { id: string },
  slug: string,
  status: string,
  extra: Record<string, unknown> = {},
) => call(UPDATE_STATUS, { input: { slug, status, ...extra } }, who);

async function pair() {
  const [owner, challenged] = await Promise.all([registerUser(platform), registerUser(platform)]);
  await Promise.all([topUp(platform, owner, 1000), topUp(platform, challenged, 1000)]);
  return { owner, challenged };
}

async function newChallenge(owner: TestUser, challenged: TestUser, challengeType: string) {
  const result = await call(
    CREATE,
    {
      input: {
        challengeName: 'Ten push-ups on one hand',
        challengeDescription: 'On video, no cuts.',
        challengeReward: REWARD,
        tags: ['strength'],
        acceptCredit: true,
        challengeType,
        challengedUsername: challenged.username,
      },
    },
    owner,
  );
  expect(result.status.identifier).toBe('ok');
  const { slug } = result.challenges[0];
  const { id } = await db().challenge.findUniqueOrThrow({ where: { slug } });
  return { slug: slug as string, id };
}

async function publish(topic: string, event: DomainEvent) {
  await produceRaw(platform.topicPrefix, topic, [
    { key: event.aggregateId, value: JSON.stringify(event) },
  ]);
}

/** Produces an event and waits until challenge's consumer has handled it (applied or refused). */
async function handled(topic: string, event: DomainEvent) {
  await publish(topic, event);
  await eventually(async () =>
    expect(await db().processedEvent.count({ where: { eventId: event.id } })).toBe(1),
  );
}

async function videoProcessed(challengeId: string, uploadedBy: TestUser) {
  const videoId = randomUUID();
  await handled(
    TOPICS.media,
    newEvent('VideoProcessed', {
      aggregateId: videoId,
      actorId: uploadedBy.id,
      data: { videoId, challengeId, uploadedBy: uploadedBy.id },
    }),
  );
}

const decision = (
  challengeId: string,
  outcome: 'approved' | 'failed',
  performerId: string | null,
  comment: string | null = null,
) =>
  newEvent('RefereeDecided', {
    aggregateId: challengeId,
    actorId: referee.id,
    data: {
      caseId: randomUUID(),
      challengeId,
      refereeId: referee.id,
      decision: outcome,
      comment,
      ...(performerId ? { performerId } : {}),
    },
  });

const rowOf = (id: string) => db().challenge.findUniqueOrThrow({ where: { id } });
const sidesOf = async (id: string) =>
  Object.fromEntries(
    (await db().challengeSide.findMany({ where: { challengeId: id } })).map((side) => [
      side.performerId,
      side.status,
    ]),
  );
const eventTypes = async (id: string) =>
  (await db().outboxEvent.findMany({ where: { key: id }, orderBy: { seq: 'asc' } })).map(
    (row) => row.type,
  );

async function walletsSettle(owner: TestUser, challenged: TestUser, expected: [number, number]) {
  await eventually(async () => {
    const [o, c] = await Promise.all([walletOf(platform, owner), walletOf(platform, challenged)]);
    expect([o, c]).toEqual([
      { availableAmount: expected[0], freezeAmount: 0 },
      { availableAmount: expected[1], freezeAmount: 0 },
    ]);
  }, 20_000);
}

describe("a referee's decision", () => {
  it('is refused in updateChallengeStatus (referee_case_required): the case decides, solo and duel alike', async () => {
    const { owner, challenged } = await pair();
    const solo = await newChallenge(owner, challenged, 'solo');
    const duel = await newChallenge(owner, challenged, 'duel');
    for (const { slug, id } of [solo, duel]) {
      expect((await setStatus(challenged, slug, 'accepted')).status.identifier).toBe('ok');
      await videoProcessed(id, challenged);
      const rejected = await setStatus(owner, slug, 'referee', { reason: 'Knee push-ups.' });
      expect(rejected.challenge.status).toBe('referee');
      const before = await eventTypes(id);
      for (const who of [referee, admin]) {
        for (const status of ['completed', 'failed']) {
          const refused = await setStatus(who, slug, status, { reason: 'Looks fine.' });
          expect(refused.status, `${who.roles} ${status}`).toEqual({
            success: false,
            identifier: 'referee_case_required',
            message: 'A dispute is decided in its referee case, in the staff console.',
          });
        }
      }
      expect((await rowOf(id)).status).toBe('referee');
      expect(await eventTypes(id)).toEqual(before);
    }
    expect(await sidesOf(duel.id)).toEqual({
      [owner.id]: 'awaiting_video',
      [challenged.id]: 'referee',
    });
  });

  it("settles a solo challenge's one side; a decision naming another performer, or repeated, changes nothing", async () => {
    const { owner, challenged } = await pair();
    const { slug, id } = await newChallenge(owner, challenged, 'solo');
    await setStatus(challenged, slug, 'accepted');
    await videoProcessed(id, challenged);
    await setStatus(owner, slug, 'referee', { reason: 'Knee push-ups.' });
    // Not this challenge's performer: a stale or misrouted case.
    await handled(TOPICS.moderation, decision(id, 'approved', owner.id));
    expect((await rowOf(id)).status).toBe('referee');
    const failed = decision(id, 'failed', challenged.id, 'Knees on the floor.');
    await handled(TOPICS.moderation, failed);
    expect(await rowOf(id)).toMatchObject({
      status: 'failed',
      judgedByReferee: true,
      challengeFailedComment: 'Knees on the floor.',
    });
    // Redelivered (same id), and repeated with the other outcome (a new id): nothing more.
    await publish(TOPICS.moderation, failed);
    await handled(TOPICS.moderation, decision(id, 'approved', challenged.id));
    expect((await rowOf(id)).status).toBe('failed');
    expect((await eventTypes(id)).filter((type) => type === 'ChallengeFailed')).toHaveLength(1);
    await walletsSettle(owner, challenged, [1000, 1000]);
  });

  it('moves only the side it names when both sides of a duel are in referee; stale, repeated and unnamed decisions change nothing', async () => {
    const { owner, challenged } = await pair();
    const { slug, id } = await newChallenge(owner, challenged, 'duel');
    await setStatus(challenged, slug, 'accepted');
    await videoProcessed(id, owner);
    await videoProcessed(id, challenged);
    // Each party rejects the other's video: both sides in referee at once.
    expect(
      (await setStatus(owner, slug, 'referee', { reason: 'Knee push-ups.' })).status.identifier,
    ).toBe('ok');
    expect(
      (await setStatus(challenged, slug, 'referee', { reason: 'Only nine.' })).status.identifier,
    ).toBe('ok');
    expect(await sidesOf(id)).toEqual({ [owner.id]: 'referee', [challenged.id]: 'referee' });
    // Both disputed: a decision that names no side (a case of before sides were recorded) is
    // ambiguous and changes nothing.
    await handled(TOPICS.moderation, decision(id, 'approved', null));
    expect(await sidesOf(id)).toEqual({ [owner.id]: 'referee', [challenged.id]: 'referee' });

    const ownerApproved = decision(id, 'approved', owner.id);
    await handled(TOPICS.moderation, ownerApproved);
    expect(await sidesOf(id)).toEqual({ [owner.id]: 'completed', [challenged.id]: 'referee' });
    expect((await rowOf(id)).status).toBe('referee');
    // The owner's case again (redelivered), a stale opposite decision for the owner's side, and
    // an unnamed one now that one side is in referee: the owner's side was decided by a referee,
    // so the unnamed decision may be that side's stale case, never the other side's.
    await publish(TOPICS.moderation, ownerApproved);
    await handled(TOPICS.moderation, decision(id, 'failed', owner.id, 'Too late.'));
    await handled(TOPICS.moderation, decision(id, 'approved', null));
    expect(await sidesOf(id)).toEqual({ [owner.id]: 'completed', [challenged.id]: 'referee' });
    expect((await rowOf(id)).status).toBe('referee');

    await handled(TOPICS.moderation, decision(id, 'failed', challenged.id, 'Knees down.'));
    expect(await sidesOf(id)).toEqual({ [owner.id]: 'completed', [challenged.id]: 'failed' });
    expect(await rowOf(id)).toMatchObject({ status: 'completed', judgedByReferee: true });
    expect((await eventTypes(id)).slice(-2)).toEqual(['DuelSideJudged', 'ChallengeCompleted']);
    // The owner completed, the challenged user failed: the owner takes both stakes.
    await walletsSettle(owner, challenged, [1000 + REWARD, 1000 - REWARD]);
  });

  it('ends a duel once when the decisions of its two sides are applied at the same moment', async () => {
    const { owner, challenged } = await pair();
    const { slug, id } = await newChallenge(owner, challenged, 'duel');
    await setStatus(challenged, slug, 'accepted');
    await videoProcessed(id, owner);
    await videoProcessed(id, challenged);
    await setStatus(owner, slug, 'referee', { reason: 'Knee push-ups.' });
    await setStatus(challenged, slug, 'referee', { reason: 'Only nine.' });
    // Two consumers (or instances) applying the two cases' decisions at once: the duel's row lock
    // orders them, so the second derives the duel's end from the first's side.
    const logger = platform.challenge.runtime.logger;
    await Promise.all(
      [
        decision(id, 'failed', owner.id, 'Nine.'),
        decision(id, 'failed', challenged.id, 'Knees.'),
      ].map((event) => transactionRunner(db())((tx) => applyRefereeDecided(tx, event, logger))),
    );
    expect(await sidesOf(id)).toEqual({ [owner.id]: 'failed', [challenged.id]: 'failed' });
    expect((await rowOf(id)).status).toBe('failed');
    const types = await eventTypes(id);
    expect(types.filter((type) => type === 'ChallengeFailed')).toHaveLength(1);
    expect(types.filter((type) => type === 'DuelSideJudged')).toHaveLength(1);
    // Both failed: each stake goes back to whoever staked it.
    await walletsSettle(owner, challenged, [1000, 1000]);
  });
});
