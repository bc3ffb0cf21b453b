import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent } from '@challenge/events';
import {
  deleteTopics,
  graphql,
  startTestService,
  uniqueTopicPrefix,
  waitForCaughtUp,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationApp } from '../src/app.ts';
import { findUser, projectRegistrationOnce } from '../src/data/users.ts';
import { ACTIVITY_GROUP } from '../src/events/consumers.ts';
import {
  challengeEvent,
  inTwoWeeks,
  newChallenge,
  newUser,
  notificationBuilder,
  publish,
  type TestUser,
} from './support.ts';

const topicPrefix = uniqueTopicPrefix();
let service: TestService<NotificationApp>;

beforeAll(async () => {
  service = await startTestService('notification', notificationBuilder(), { topicPrefix });
});
afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

const LOG = `query ($page: Int, $itemsPerPage: Int) {
  getActivityLogByUser(page: $page, itemsPerPage: $itemsPerPage) {
    status { success identifier message }
    items { id type challenge { id slug challengeName challengeReward } user { id } timestamp }
    pagination { currentPage totalPages totalCount }
  }
}`;

// Navigated freely: the assertions check the shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Entry = any;

async function logOf(user: { id: string }, page = 1, itemsPerPage = 50) {
  const response = await graphql(service.url, LOG, { page, itemsPerPage }, { id: user.id });
  return response.data?.getActivityLogByUser;
}
/** The log as [type, other party] pairs, newest first. */
const summary = async (user: { id: string }) =>
  ((await logOf(user)).items as Entry[]).map((entry) => [entry.type, entry.user?.id ?? null]);

const caughtUp = async () => {
  await waitForCaughtUp(topicPrefix, ACTIVITY_GROUP, TOPICS.identity);
  await waitForCaughtUp(topicPrefix, ACTIVITY_GROUP, TOPICS.challenge);
};

/** Three accounts that identity has announced: an owner, the person they dare, and a fan. */
async function people(): Promise<[TestUser, TestUser, TestUser]> {
  const made = [newUser(), newUser({ locale: 'nl' }), newUser()];
  await publish(topicPrefix, ...made.map((m) => m.event));
  return made.map((m) => m.user) as [TestUser, TestUser, TestUser];
}

describe('the activity log', () => {
  it('gives every party of each challenge event its entry, once, newest first', async () => {
    const [owner, challenged, fan] = await people();
    const challenge = newChallenge(owner, challenged);
    // One challenge through the whole saga, each event one second after the previous one.
    const saga = [
      challengeEvent('ChallengeCreated', challenge, {
        visibility: 'public',
        expiresAt: inTwoWeeks(),
      }),
      challengeEvent('ChallengeAccepted', challenge, {}),
      challengeEvent('ChallengeVideoUploaded', challenge, { videoId: randomUUID() }),
      challengeEvent('ChallengeLiked', challenge, { likedBy: fan.id }),
      challengeEvent('ChallengeCommented', challenge, {
        commentId: randomUUID(),
        commentedBy: challenged.id,
      }),
      challengeEvent('ChallengeSentToReferee', challenge, { reason: 'Only four eggs' }),
      challengeEvent('ChallengeCompleted', challenge, { judgedByReferee: true }),
    ].map((event, index) => ({
      ...event,
      occurredAt: new Date(Date.UTC(2026, 10, 22, 12, 0, index)).toISOString(),
    }));
    // Each event delivered twice, as after a producer retry or a consumer rebalance.
    await publish(topicPrefix, ...saga, ...saga);
    await caughtUp();

    expect(await summary(owner)).toEqual([
      ['completed', challenged.id],
      ['commented', challenged.id],
      ['liked', fan.id],
      ['video_uploaded', challenged.id],
      ['accepted', challenged.id],
    ]);
    expect(await summary(challenged)).toEqual([
      ['completed', owner.id],
      ['referee', owner.id],
      ['liked', fan.id],
      ['invited', owner.id],
    ]);
    expect(await summary(fan)).toEqual([]);

    const [newest] = (await logOf(owner)).items as Entry[];
    expect(newest).toEqual({
      id: expect.any(String),
      type: 'completed',
      challenge: {
        id: challenge.challengeId,
        slug: challenge.slug,
        challengeName: 'Juggle five eggs',
        challengeReward: 1250,
      },
      user: { id: challenged.id },
      timestamp: '2026-11-22T12:00:06.000Z',
    });
  });

  it('records refusals, failures and expiries for the right side', async () => {
    const [owner, challenged] = await people();
    const refused = newChallenge(owner, challenged, { challengeName: 'Sing in the rain' });
    const failed = newChallenge(owner, challenged, { challengeName: 'Run a marathon' });
    const expired = newChallenge(owner, challenged, { challengeName: 'Bake a cake' });
    const cancelled = newChallenge(owner, challenged, { challengeName: 'Climb a tree' });
    await publish(
      topicPrefix,
      challengeEvent('ChallengeRefused', refused, { reason: 'Too wet' }),
      challengeEvent('ChallengeFailed', failed, { comment: null }),
      challengeEvent('ChallengeExpired', expired, {}),
      challengeEvent('ChallengeCancelled', cancelled, {}),
    );
    await caughtUp();
    const names = async (user: TestUser) =>
      ((await logOf(user)).items as Entry[])
        .map((entry) => `${entry.type}:${entry.challenge.challengeName}`)
        .sort();
    expect(await names(owner)).toEqual([
      'expired:Bake a cake',
      'failed:Run a marathon',
      'refused:Sing in the rain',
    ]);
    expect(await names(challenged)).toEqual(['expired:Bake a cake', 'failed:Run a marathon']);
  });

  it('pages: currentPage, totalPages, totalCount, and an empty page past the end', async () => {
    const [owner, challenged] = await people();
    const challenge = newChallenge(owner, challenged);
    const likes = Array.from({ length: 5 }, (_, index) => ({
      ...challengeEvent('ChallengeLiked', challenge, { likedBy: randomUUID() }),
      occurredAt: new Date(Date.UTC(2026, 10, 22, 12, index)).toISOString(),
    }));
    await publish(topicPrefix, ...likes);
    await caughtUp();

    const first = await logOf(owner, 1, 2);
    expect(first.status).toMatchObject({ success: true, identifier: 'ok' });
    expect(first.pagination).toEqual({ currentPage: 1, totalPages: 3, totalCount: 5 });
    expect((first.items as Entry[]).map((entry) => entry.user.id)).toEqual([
      likes[4]!.data.likedBy,
      likes[3]!.data.likedBy,
    ]);
    const last = await logOf(owner, 3, 2);
    expect((last.items as Entry[]).map((entry) => entry.user.id)).toEqual([likes[0]!.data.likedBy]);
    expect((await logOf(owner, 4, 2)).items).toEqual([]);

    const tooMany = await logOf(owner, 1, 101);
    expect(tooMany.status).toMatchObject({ success: false, identifier: 'invalid_input' });
    expect(tooMany.items).toEqual([]);
  });

  it('is only ever the logged-in user’s own, and unauthorized without a log-in', async () => {
    const anonymous = await graphql(service.url, LOG, {});
    expect(anonymous.data?.getActivityLogByUser).toEqual({
      status: { success: false, identifier: 'unauthorized', message: expect.any(String) },
      items: [],
      pagination: null,
    });
  });
});

describe('the users projection', () => {
  it('keeps address, name and locale up to date, and erases them on deletion', async () => {
    const [owner, challenged] = await people();
    await publish(
      topicPrefix,
      newEvent('UserProfileUpdated', {
        aggregateId: challenged.id,
        actorId: challenged.id,
        data: { userId: challenged.id, displayName: 'Bo', avatar: null, locale: 'en' },
      }),
    );
    const challenge = newChallenge(owner, challenged);
    await publish(
      topicPrefix,
      challengeEvent('ChallengeCreated', challenge, {
        visibility: 'private',
        expiresAt: inTwoWeeks(),
      }),
      challengeEvent('ChallengeAccepted', challenge, {}),
    );
    await caughtUp();
    expect(await findUser(service.app.db, challenged.id)).toMatchObject({
      email: challenged.email,
      username: challenged.username,
      displayName: 'Bo',
      locale: 'en',
      deletedAt: null,
    });
    await service.app.db.emailPreferences.create({
      data: { userId: challenged.id, marketing: true },
    });

    const deleted = newEvent('UserDeleted', {
      aggregateId: challenged.id,
      actorId: null,
      data: { userId: challenged.id },
    });
    await publish(topicPrefix, deleted);
    await caughtUp();

    expect(await findUser(service.app.db, challenged.id)).toMatchObject({
      email: null,
      username: null,
      displayName: null,
      deletedAt: expect.any(Date),
    });
    expect(await service.app.db.emailPreferences.count({ where: { userId: challenged.id } })).toBe(
      0,
    );
    expect(await summary(challenged)).toEqual([]);
    // In the owner's log the deleted account is nobody any more.
    expect(await summary(owner)).toEqual([['accepted', null]]);

    // A replayed registration does not bring the account back.
    const replay = newEvent('UserRegistered', {
      aggregateId: challenged.id,
      actorId: challenged.id,
      data: { userId: challenged.id, username: 'again', email: challenged.email, locale: 'nl' },
    });
    await publish(topicPrefix, replay);
    await caughtUp();
    expect((await findUser(service.app.db, challenged.id))?.email).toBeNull();
  });

  it('projects a registration once per event, its mark in the same statement (docs/adr/0104)', async () => {
    const id = randomUUID();
    const user = {
      id,
      email: `once-${id.slice(0, 8)}@example.com`,
      username: `once_${id.slice(0, 6)}`,
      locale: 'nl',
    };
    const mark = { consumer: ACTIVITY_GROUP, eventId: randomUUID() };
    expect(await projectRegistrationOnce(service.app.db, mark, user)).toBe(true);
    // The same event again (a redelivery) is a no-op, even with other data.
    expect(await projectRegistrationOnce(service.app.db, mark, { ...user, locale: 'en' })).toBe(
      false,
    );
    expect(await findUser(service.app.db, id)).toMatchObject({ email: user.email, locale: 'nl' });
  });
});
