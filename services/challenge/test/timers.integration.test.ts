import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent, type DomainEvent } from '@challenge/events';
import { AppError, PROOF_UPLOADS_PATH, createProofUploadClient } from '@challenge/kit';
import {
  TEST_INTERNAL_API_TOKEN,
  eventually,
  graphql,
  produceRaw,
  uniqueTopicPrefix,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChallengeById } from '../src/data/challenges.ts';
import { transactionRunner } from '../src/data/db.ts';
import { lockDueChallenges } from '../src/data/scheduler.ts';
import { lockChallenge } from '../src/data/sides.ts';
import { runSchedulerOnce } from '../src/domain/scheduler.ts';
import { transitionIn } from '../src/domain/status.ts';
import {
  registerUser,
  startPlatform,
  topUp,
  walletOf,
  type Platform,
  type TestUser,
} from './support/platform.ts';

/**
 * The challenge's timers (issue 18, points 6 and 7; docs/adr/0071) against the real database,
 * Kafka and wallet: media's registration of a completed proof upload (its internal call),
 * media's VideoProcessed / VideoProcessingFailed and moderation's take-offline and
 * bring-back-online events, and the scheduler run pass by pass at chosen times. The service's
 * own clock (the consumers' and the registration's) is one the test sets.
 */

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const WINDOW_MS = WEEK;

let platform: Platform;
let clockNow = new Date();
const moderator = randomUUID();

beforeAll(async () => {
  platform = await startPlatform(
    uniqueTopicPrefix(),
    { judgingWindowMs: WINDOW_MS },
    () => clockNow,
  );
});

afterAll(() => platform?.stop());

const db = () => platform.challenge.app.db;
const logger = () => platform.challenge.runtime.logger;
const proofs = () =>
  createProofUploadClient({
    baseUrl: new URL(platform.challenge.url).origin,
    token: TEST_INTERNAL_API_TOKEN,
  });
const rowOf = (id: string) => db().challenge.findUniqueOrThrow({ where: { id } });
const sideOf = (challengeId: string, performer: TestUser) =>
  db().challengeSide.findUniqueOrThrow({
    where: { challengeId_performerId: { challengeId, performerId: performer.id } },
  });
const eventsOf = (id: string, type: string) => db().outboxEvent.count({ where: { key: id, type } });
const pass = (at: Date) => runSchedulerOnce(db(), WINDOW_MS, logger(), at);
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

/**
 * An owner and a friend of their own, each with 1,000 cents: the passes of one test run weeks
 * ahead and end other tests' challenges, so no test shares a wallet.
 */
async function parties(): Promise<{ owner: TestUser; friend: TestUser }> {
  const [owner, friend] = await Promise.all([registerUser(platform), registerUser(platform)]);
  await Promise.all([topUp(platform, owner, 1_000), topUp(platform, friend, 1_000)]);
  return { owner, friend };
}
const FUNDS = { availableAmount: 1_000, freezeAmount: 0 };

async function newChallenge(
  { owner, friend }: { owner: TestUser; friend: TestUser },
  challengeType: 'solo' | 'duel' = 'solo',
  reward = 300,
) {
  const { data } = await graphql(
    platform.challenge.url,
    `
      mutation ($input: CreateChallengeInput!) {
        createChallenge(input: $input) {
          status {
            identifier
          }
          challenges {
            slug
          }
        }
      }
    `,
    {
      input: {
        challengeName: 'Whistle a tune',
        challengeDescription: 'With a mouth full of crackers.',
        challengeReward: reward,
        tags: ['whistling'],
        acceptCredit: true,
        challengedUsername: friend.username,
        challengeType,
        expirationTimeWeeks: 2,
      },
    },
    owner,
  );
  expect(data?.createChallenge.status.identifier).toBe('ok');
  const { slug } = data!.createChallenge.challenges[0];
  return db().challenge.findUniqueOrThrow({ where: { slug } });
}

async function setStatus(slug: string, status: string, as: TestUser) {
  const { data } = await graphql(
    platform.challenge.url,
    `
      mutation ($input: UpdateChallengeStatusInput!) {
        updateChallengeStatus(input: $input) {
          status {
            identifier
          }
        }
      }
    `,
    { input: { slug, status } },
    as,
  );
  expect(data?.updateChallengeStatus.status.identifier).toBe('ok');
}

async function accepted(
  people: { owner: TestUser; friend: TestUser },
  challengeType: 'solo' | 'duel' = 'solo',
) {
  const challenge = await newChallenge(people, challengeType);
  await setStatus(challenge.slug, 'accepted', people.friend);
  return rowOf(challenge.id);
}

async function publish(topic: string, event: DomainEvent, times = 1) {
  const message = { key: event.aggregateId, value: JSON.stringify(event) };
  await produceRaw(
    platform.topicPrefix,
    topic,
    Array.from({ length: times }, () => message),
  );
}

/** Waits until challenge's consumer handled the event (its id is recorded with the effect). */
async function handled(event: DomainEvent) {
  await eventually(async () =>
    expect(await db().processedEvent.count({ where: { eventId: event.id } })).toBe(1),
  );
}

function mediaEvent(
  type: 'VideoProcessed' | 'VideoProcessingFailed',
  challengeId: string,
  videoId: string,
  uploadedBy: TestUser,
) {
  const data = { videoId, challengeId, uploadedBy: uploadedBy.id };
  return type === 'VideoProcessed'
    ? newEvent('VideoProcessed', { aggregateId: videoId, actorId: uploadedBy.id, data })
    : newEvent('VideoProcessingFailed', {
        aggregateId: videoId,
        actorId: uploadedBy.id,
        data: { ...data, reason: 'invalid_video' },
      });
}

function moderationEvent(
  type: 'ChallengeTakenOffline' | 'ChallengeBroughtBackOnline',
  challengeId: string,
) {
  return type === 'ChallengeTakenOffline'
    ? newEvent(type, {
        aggregateId: challengeId,
        actorId: moderator,
        data: { challengeId, moderatorId: moderator, reportId: null },
      })
    : newEvent(type, {
        aggregateId: challengeId,
        actorId: moderator,
        data: { challengeId, moderatorId: moderator },
      });
}

/**
 * What wallet was told of the challenge's timers, in order: `timersPaused` of each
 * ChallengeExpirationChanged (wallet's reconciliation leaves a paused challenge's stakes alone
 * past their date, docs/adr/0072).
 */
async function pausesToldOf(id: string): Promise<(boolean | undefined)[]> {
  const changed = await db().outboxEvent.findMany({
    where: { key: id, type: 'ChallengeExpirationChanged' },
    orderBy: { seq: 'asc' },
  });
  return changed.map(
    (row) => (row.payload as { data: { timersPaused?: boolean } }).data.timersPaused,
  );
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'registered',
    (error: unknown) => (error instanceof AppError ? error.identifier : String(error)),
  );

describe('a proof whose upload completed before the expiration date', () => {
  it('holds the expiry while it is processed; VideoProcessed past the date starts the review, no money moves', async () => {
    clockNow = new Date();
    const { owner, friend } = await parties();
    const challenge = await accepted({ owner, friend });
    const videoId = randomUUID();
    const registered = await proofs().register({
      challengeId: challenge.id,
      videoId,
      performerId: friend.id,
    });
    expect(registered.registeredAt).toBe(clockNow.toISOString());
    expect(await rowOf(challenge.id)).toMatchObject({
      pendingVideoId: videoId,
      pendingVideoAt: clockNow,
    });

    const pastTheDate = later(challenge.expirationDate, DAY);
    await pass(pastTheDate);
    await pass(pastTheDate);
    expect((await rowOf(challenge.id)).status).toBe('accepted');

    clockNow = pastTheDate;
    const processed = mediaEvent('VideoProcessed', challenge.id, videoId, friend);
    await publish(TOPICS.media, processed);
    await handled(processed);
    expect(await rowOf(challenge.id)).toMatchObject({
      status: 'review',
      reviewStartedAt: pastTheDate,
      pendingVideoId: null,
    });
    expect(await eventsOf(challenge.id, 'ChallengeExpired')).toBe(0);
    // The owner's judging window runs from the review's start.
    await pass(later(pastTheDate, WINDOW_MS - 60_000));
    expect((await rowOf(challenge.id)).status).toBe('review');
    expect(await walletOf(platform, owner)).toEqual({ availableAmount: 700, freezeAmount: 300 });
    expect(await walletOf(platform, friend)).toEqual(FUNDS);
  });

  it('a processing failure past the date expires it at the next pass: the reward back once', async () => {
    clockNow = new Date();
    const { owner, friend } = await parties();
    const challenge = await accepted({ owner, friend });
    const videoId = randomUUID();
    await proofs().register({ challengeId: challenge.id, videoId, performerId: friend.id });
    // Wallet must not offer the stake as stray past the date while the proof is on its way.
    expect(await pausesToldOf(challenge.id)).toEqual([true]);
    const pastTheDate = later(challenge.expirationDate, DAY);
    await pass(pastTheDate);
    expect((await rowOf(challenge.id)).status).toBe('accepted');

    const failed = mediaEvent('VideoProcessingFailed', challenge.id, videoId, friend);
    await publish(TOPICS.media, failed, 2); // redelivered
    await handled(failed);
    expect((await rowOf(challenge.id)).pendingVideoId).toBeNull();
    expect(await pausesToldOf(challenge.id)).toEqual([true, false]);
    await pass(pastTheDate);
    await pass(pastTheDate);
    expect((await rowOf(challenge.id)).status).toBe('expired');
    expect(await eventsOf(challenge.id, 'ChallengeExpired')).toBe(1);
    await eventually(async () => expect(await walletOf(platform, owner)).toEqual(FUNDS));
    expect(await walletOf(platform, friend)).toEqual(FUNDS);
    // Too late for another proof now.
    expect(
      await refusal(
        proofs().register({
          challengeId: challenge.id,
          videoId: randomUUID(),
          performerId: friend.id,
        }),
      ),
    ).toBe('challenge_expired');
  });

  it('before the date a failed proof may be replaced; a late failure of the replaced one clears nothing', async () => {
    clockNow = new Date();
    const { owner, friend } = await parties();
    const challenge = await accepted({ owner, friend });
    const [first, second] = [randomUUID(), randomUUID()];
    await proofs().register({ challengeId: challenge.id, videoId: first, performerId: friend.id });
    // Media keeps one live video per performer: a second upload means the first one failed.
    await proofs().register({ challengeId: challenge.id, videoId: second, performerId: friend.id });
    const failed = mediaEvent('VideoProcessingFailed', challenge.id, first, friend);
    await publish(TOPICS.media, failed);
    await handled(failed);
    expect((await rowOf(challenge.id)).pendingVideoId).toBe(second);
    expect(await pausesToldOf(challenge.id)).toEqual([true, true]);
    await pass(later(challenge.expirationDate, DAY));
    expect((await rowOf(challenge.id)).status).toBe('accepted');
  });

  it("a duel's side waits for its registered proof; its failure fails the side past the date, each stake back once", async () => {
    clockNow = new Date();
    const { owner, friend } = await parties();
    const duel = await accepted({ owner, friend }, 'duel');
    const videoId = randomUUID();
    await proofs().register({ challengeId: duel.id, videoId, performerId: friend.id });
    expect(await sideOf(duel.id, friend)).toMatchObject({
      status: 'awaiting_video',
      pendingVideoId: videoId,
    });
    const pastTheDate = later(duel.expirationDate, DAY);
    await pass(pastTheDate);
    // The owner sent nothing: their side fails. The friend's proof is on its way: it waits.
    expect((await sideOf(duel.id, owner)).status).toBe('failed');
    expect((await sideOf(duel.id, friend)).status).toBe('awaiting_video');
    expect((await rowOf(duel.id)).status).toBe('accepted');

    expect(await pausesToldOf(duel.id)).toEqual([true]);

    const failed = mediaEvent('VideoProcessingFailed', duel.id, videoId, friend);
    await publish(TOPICS.media, failed);
    await handled(failed);
    expect(await pausesToldOf(duel.id)).toEqual([true, false]);
    await pass(pastTheDate);
    expect((await sideOf(duel.id, friend)).status).toBe('failed');
    expect((await rowOf(duel.id)).status).toBe('failed');
    expect(await eventsOf(duel.id, 'ChallengeFailed')).toBe(1);
    await eventually(async () => {
      expect(await walletOf(platform, owner)).toEqual(FUNDS);
      expect(await walletOf(platform, friend)).toEqual(FUNDS);
    });
  });

  it('is refused when it does not count: past the date, by someone else, while offline; the same video again is its registration', async () => {
    clockNow = new Date();
    const people = await parties();
    const { owner, friend } = people;
    const challenge = await accepted(people);
    const register = (performerId: string, videoId = randomUUID(), challengeId = challenge.id) =>
      refusal(proofs().register({ challengeId, videoId, performerId }));
    expect(await register(owner.id)).toBe('invalid_action');
    expect(await register(friend.id, randomUUID(), randomUUID())).toBe('challenge_not_found');

    const videoId = randomUUID();
    const first = await proofs().register({
      challengeId: challenge.id,
      videoId,
      performerId: friend.id,
    });
    clockNow = later(clockNow, 60_000);
    expect(
      await proofs().register({ challengeId: challenge.id, videoId, performerId: friend.id }),
    ).toEqual(first);

    const open = await newChallenge(people);
    expect(await register(friend.id, randomUUID(), open.id)).toBe('invalid_action');
    const other = await accepted(people);
    clockNow = other.expirationDate;
    expect(await register(friend.id, randomUUID(), other.id)).toBe('challenge_expired');

    clockNow = new Date();
    const offline = moderationEvent('ChallengeTakenOffline', other.id);
    await publish(TOPICS.moderation, offline);
    await handled(offline);
    expect(await register(friend.id, randomUUID(), other.id)).toBe('challenge_not_found');

    // Only media: the internal token, and a well-formed body.
    const url = new URL(PROOF_UPLOADS_PATH, new URL(platform.challenge.url).origin);
    const body = JSON.stringify({ challengeId: challenge.id, videoId, performerId: friend.id });
    const anonymous = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(anonymous.status).toBe(401);
    const malformed = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${TEST_INTERNAL_API_TOKEN}`,
      },
      body: JSON.stringify({ challengeId: 'x' }),
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ status: { identifier: 'invalid_input' } });
  });

  it("a registration waiting for the scheduler's row lock is refused once that pass expired the challenge", async () => {
    clockNow = new Date();
    const { owner, friend } = await parties();
    const challenge = await accepted({ owner, friend });
    const pastTheDate = later(challenge.expirationDate, DAY);
    let registration: Promise<string> | undefined;
    await transactionRunner(db())(async (tx) => {
      // The scheduler's own steps: the due rows locked, the expiry made.
      const due = await lockDueChallenges(tx, pastTheDate, WINDOW_MS, 100);
      expect(due.map((row) => row.id)).toContain(challenge.id);
      registration = refusal(
        proofs().register({
          challengeId: challenge.id,
          videoId: randomUUID(),
          performerId: friend.id,
        }),
      );
      // The registration's transaction waits for this one's lock on the row.
      await eventually(async () => {
        const [waiting] = await db().$queryRaw<{ count: bigint }[]>`
          SELECT count(*) AS count FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`;
        expect(Number(waiting!.count)).toBeGreaterThan(0);
      });
      const row = await findChallengeById(tx, challenge.id);
      await transitionIn(tx, row!, {
        action: 'expire',
        actors: ['system'],
        actorId: null,
        now: pastTheDate,
      });
    });
    expect(await registration).toBe('challenge_expired');
    expect((await rowOf(challenge.id)).pendingVideoId).toBeNull();
  });

  it('a pass while a registration holds the row skips it, and the next pass finds the proof registered', async () => {
    clockNow = new Date();
    const challenge = await accepted(await parties());
    const pastTheDate = later(challenge.expirationDate, DAY);
    await transactionRunner(db())(async (tx) => {
      // A registration's transaction, between its lock and its commit.
      await lockChallenge(tx, challenge.id);
      await pass(pastTheDate);
      expect((await findChallengeById(db(), challenge.id))!.status).toBe('accepted');
      await tx.challenge.update({
        where: { id: challenge.id },
        data: { pendingVideoId: randomUUID(), pendingVideoAt: clockNow },
      });
    });
    await pass(pastTheDate);
    expect((await rowOf(challenge.id)).status).toBe('accepted');
  });
});

describe('a challenge staff took offline', () => {
  async function takeOffline(id: string, at: Date) {
    clockNow = at;
    const event = moderationEvent('ChallengeTakenOffline', id);
    await publish(TOPICS.moderation, event);
    await handled(event);
  }

  async function bringBack(id: string, at: Date) {
    clockNow = at;
    const event = moderationEvent('ChallengeBroughtBackOnline', id);
    await publish(TOPICS.moderation, event, 2); // redelivered: moved once
    await handled(event);
  }

  it('in review: no approval by silence while offline; back online the owner has the days left', async () => {
    const start = new Date();
    clockNow = start;
    const { owner, friend } = await parties();
    const challenge = await accepted({ owner, friend });
    const processed = mediaEvent('VideoProcessed', challenge.id, randomUUID(), friend);
    await publish(TOPICS.media, processed);
    await handled(processed);
    expect((await rowOf(challenge.id)).reviewStartedAt).toEqual(start);

    await takeOffline(challenge.id, later(start, 2 * DAY));
    await pass(later(start, 10 * DAY));
    expect((await rowOf(challenge.id)).status).toBe('review');

    // Offline from day 2 to day 10: the window that had five days left has five days left again.
    await bringBack(challenge.id, later(start, 10 * DAY));
    expect(await rowOf(challenge.id)).toMatchObject({
      moderation: null,
      offlineSince: null,
      reviewStartedAt: later(start, 8 * DAY),
    });
    await pass(later(start, 15 * DAY - 60_000));
    expect((await rowOf(challenge.id)).status).toBe('review');
    await pass(later(start, 15 * DAY));
    expect((await rowOf(challenge.id)).status).toBe('completed');
    await eventually(async () =>
      expect(await walletOf(platform, friend)).toEqual({ availableAmount: 1_300, freezeAmount: 0 }),
    );
    expect(await walletOf(platform, owner)).toEqual({ availableAmount: 700, freezeAmount: 0 });
  });

  it('accepted: no expiry while offline; back online the expiration date moved by the offline time', async () => {
    const start = new Date();
    clockNow = start;
    const { owner, friend } = await parties();
    const challenge = await accepted({ owner, friend });
    await takeOffline(challenge.id, later(start, DAY));
    await pass(later(challenge.expirationDate, WEEK));
    expect((await rowOf(challenge.id)).status).toBe('accepted');
    // A proof cannot come in while its parties are locked out.
    expect(
      await refusal(
        proofs().register({
          challengeId: challenge.id,
          videoId: randomUUID(),
          performerId: friend.id,
        }),
      ),
    ).toBe('challenge_not_found');

    await bringBack(challenge.id, later(start, 4 * WEEK));
    const moved = later(challenge.expirationDate, 4 * WEEK - DAY);
    expect((await rowOf(challenge.id)).expirationDate).toEqual(moved);
    // Wallet hears that the timers stood still, then the new date (its reconciliation reports
    // stakes held past their date, ADR 72, but not while nothing can expire them), each once.
    const changed = await db().outboxEvent.findMany({
      where: { key: challenge.id, type: 'ChallengeExpirationChanged' },
      orderBy: { seq: 'asc' },
    });
    expect(
      changed.map(
        (row) => (row.payload as { data: { expiresAt: string; timersPaused: boolean } }).data,
      ),
    ).toEqual([
      expect.objectContaining({
        expiresAt: challenge.expirationDate.toISOString(),
        timersPaused: true,
      }),
      expect.objectContaining({ expiresAt: moved.toISOString(), timersPaused: false }),
    ]);
    await pass(later(moved, -60_000));
    expect((await rowOf(challenge.id)).status).toBe('accepted');
    await pass(moved);
    expect((await rowOf(challenge.id)).status).toBe('expired');
    await eventually(async () => expect(await walletOf(platform, owner)).toEqual(FUNDS));
  });

  it('a proof on its way keeps the timers paused for wallet after it is back online', async () => {
    const start = new Date();
    clockNow = start;
    const { owner, friend } = await parties();
    const challenge = await accepted({ owner, friend });
    const videoId = randomUUID();
    await proofs().register({ challengeId: challenge.id, videoId, performerId: friend.id });
    await takeOffline(challenge.id, later(start, DAY));
    await bringBack(challenge.id, later(start, 2 * DAY));
    // Back online, but the registered proof still wins over the date: still paused.
    expect(await pausesToldOf(challenge.id)).toEqual([true, true, true]);
    const processed = mediaEvent('VideoProcessed', challenge.id, videoId, friend);
    await publish(TOPICS.media, processed);
    await handled(processed);
    expect((await rowOf(challenge.id)).status).toBe('review');
  });

  it("a duel's side processed: the timers run again for the side still to come", async () => {
    clockNow = new Date();
    const { owner, friend } = await parties();
    const duel = await accepted({ owner, friend }, 'duel');
    const videoId = randomUUID();
    await proofs().register({ challengeId: duel.id, videoId, performerId: friend.id });
    const processed = mediaEvent('VideoProcessed', duel.id, videoId, friend);
    await publish(TOPICS.media, processed);
    await handled(processed);
    expect((await sideOf(duel.id, friend)).status).toBe('review');
    expect(await pausesToldOf(duel.id)).toEqual([true, false]);
  });

  it("a duel's windows move too; a review that started while offline starts when it is back", async () => {
    const start = new Date();
    clockNow = start;
    const { owner, friend } = await parties();
    const duel = await accepted({ owner, friend }, 'duel');
    const ownersVideo = mediaEvent('VideoProcessed', duel.id, randomUUID(), owner);
    await publish(TOPICS.media, ownersVideo);
    await handled(ownersVideo);
    await takeOffline(duel.id, later(start, DAY));
    // The friend's proof, uploaded before the hiding, is processed while offline.
    clockNow = later(start, 2 * DAY);
    const friendsVideo = mediaEvent('VideoProcessed', duel.id, randomUUID(), friend);
    await publish(TOPICS.media, friendsVideo);
    await handled(friendsVideo);
    await pass(later(start, 5 * WEEK));
    expect((await sideOf(duel.id, owner)).status).toBe('review');
    expect((await sideOf(duel.id, friend)).status).toBe('review');

    await bringBack(duel.id, later(start, 3 * DAY));
    expect((await sideOf(duel.id, owner)).reviewStartedAt).toEqual(later(start, 2 * DAY));
    expect((await sideOf(duel.id, friend)).reviewStartedAt).toEqual(later(start, 3 * DAY));
    expect((await rowOf(duel.id)).expirationDate).toEqual(later(duel.expirationDate, 2 * DAY));
    await pass(later(start, 2 * DAY + WINDOW_MS));
    expect((await sideOf(duel.id, owner)).status).toBe('completed');
    expect((await sideOf(duel.id, friend)).status).toBe('review');
    await pass(later(start, 3 * DAY + WINDOW_MS));
    expect((await rowOf(duel.id)).status).toBe('completed');
    // Both completed: each keeps their own stake.
    await eventually(async () => {
      expect(await walletOf(platform, owner)).toEqual(FUNDS);
      expect(await walletOf(platform, friend)).toEqual(FUNDS);
    });
  });
});
