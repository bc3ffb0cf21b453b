import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent, type DomainEvent } from '@challenge/events';
import { eventually, graphql, produceRaw, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transition } from '../src/domain/status.ts';
import {
  registerUser,
  settledWalletOf,
  startPlatform,
  topUp,
  type Platform,
  type TestUser,
} from './support/platform.ts';

/**
 * Moderation's ChallengeTakenOffline and ChallengeRemoved (docs/adr/0041): the challenge answers
 * challenge_not_found to everyone but staff; a removed challenge that has not ended is cancelled
 * by the system, so the owner's held reward goes back.
 */
const STATUS = 'status { success identifier message }';
const CREATE = `mutation ($input: CreateChallengeInput!) {
  createChallenge(input: $input) { ${STATUS} challenges { slug } } }`;
const BY_SLUG = `query ($slug: String!) {
  getChallengeBySlug(input: { slug: $slug }) { ${STATUS} challenge { slug status } } }`;
const BY_STATUS = `query ($input: GetChallengesByStatusInput!) {
  getChallengesByStatus(input: $input) { ${STATUS} challenges { slug } } }`;
const DASHBOARD = `{ getDashboardChallenges { ${STATUS} runningChallenges { slug } challengeRequests { slug } } }`;
const DISCOVER = `query ($input: DiscoverChallengesInput) {
  discoverChallenges(input: $input) { ${STATUS} challenges { slug } } }`;
const UPDATE_STATUS = `mutation ($input: UpdateChallengeStatusInput!) {
  updateChallengeStatus(input: $input) { ${STATUS} } }`;

let platform: Platform;
let owner: TestUser;
let friend: TestUser;
let stranger: TestUser;
const moderator = { id: randomUUID(), roles: ['user' as const, 'moderator' as const] };
const admin = { id: randomUUID(), roles: ['admin' as const] };

beforeAll(async () => {
  platform = await startPlatform(uniqueTopicPrefix());
  [owner, friend, stranger] = await Promise.all([
    registerUser(platform),
    registerUser(platform),
    registerUser(platform),
  ]);
  await topUp(platform, owner, 10_000);
});

afterAll(() => platform?.stop());

const db = () => platform.challenge.app.db;
const rowOf = (slug: string) => db().challenge.findUniqueOrThrow({ where: { slug } });

async function newChallenge(reward = 400): Promise<string> {
  const { data } = await graphql(
    platform.challenge.url,
    CREATE,
    {
      input: {
        challengeName: 'Sing in the rain',
        challengeDescription: 'A whole song.',
        challengeReward: reward,
        tags: ['singing'],
        acceptCredit: true,
        challengedUsername: friend.username,
      },
    },
    owner,
  );
  expect(data?.createChallenge.status.identifier).toBe('ok');
  return data!.createChallenge.challenges[0].slug;
}

async function publishModeration(event: DomainEvent, times = 1) {
  const message = { key: event.aggregateId, value: JSON.stringify(event) };
  await produceRaw(
    platform.topicPrefix,
    TOPICS.moderation,
    Array.from({ length: times }, () => message),
  );
}

const moderationEvent = (type: 'ChallengeTakenOffline' | 'ChallengeRemoved', challengeId: string) =>
  newEvent(type, {
    aggregateId: challengeId,
    actorId: moderator.id,
    data: { challengeId, moderatorId: moderator.id, reportId: randomUUID() },
  });

async function seenBy(slug: string, who?: { id: string; roles?: string[] }) {
  const bySlug = await graphql(platform.challenge.url, BY_SLUG, { slug }, who as never);
  const status = (await rowOf(slug)).status;
  const list = await graphql(
    platform.challenge.url,
    BY_STATUS,
    { input: { status, itemsPerPage: 100 } },
    who as never,
  );
  return {
    identifier: bySlug.data?.getChallengeBySlug.status.identifier,
    listed: list.data?.getChallengesByStatus.challenges.some(
      (item: { slug: string }) => item.slug === slug,
    ),
  };
}

async function discovered(slug: string, who?: { id: string; roles?: string[] }) {
  const { data } = await graphql(
    platform.challenge.url,
    DISCOVER,
    { input: { list: 'all', page: 1, itemsPerPage: 100 } },
    who as never,
  );
  return data!.discoverChallenges.challenges.some((item: { slug: string }) => item.slug === slug);
}

describe('a challenge taken offline', () => {
  it('answers challenge_not_found to everyone but staff, in every query and list', async () => {
    const slug = await newChallenge();
    const { id } = await rowOf(slug);
    expect(await seenBy(slug)).toEqual({ identifier: 'ok', listed: true });
    expect(await discovered(slug)).toBe(true);
    await publishModeration(moderationEvent('ChallengeTakenOffline', id), 2);
    await eventually(async () => expect((await rowOf(slug)).moderation).toBe('offline'));

    for (const who of [undefined, stranger, owner, friend]) {
      expect(await seenBy(slug, who)).toEqual({ identifier: 'challenge_not_found', listed: false });
    }
    // The discover lists are the public feed: offline is out of them for staff too.
    for (const who of [undefined, stranger, owner, moderator]) {
      expect(await discovered(slug, who)).toBe(false);
    }
    for (const who of [owner, friend]) {
      const { data } = await graphql(platform.challenge.url, DASHBOARD, {}, who);
      const slugs = [
        ...data!.getDashboardChallenges.runningChallenges,
        ...data!.getDashboardChallenges.challengeRequests,
      ].map((item: { slug: string }) => item.slug);
      expect(slugs).not.toContain(slug);
    }
    const accept = await graphql(
      platform.challenge.url,
      UPDATE_STATUS,
      { input: { slug, status: 'accepted' } },
      friend,
    );
    expect(accept.data?.updateChallengeStatus.status.identifier).toBe('challenge_not_found');
    const entities = await graphql(
      platform.challenge.url,
      'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Challenge { slug } } }',
      { r: [{ __typename: 'Challenge', id }] },
      owner,
    );
    expect(entities.data?._entities).toEqual([null]);

    for (const who of [moderator, admin]) {
      expect(await seenBy(slug, who)).toEqual({ identifier: 'ok', listed: true });
    }
    // The money stays where the state puts it: still held.
    expect((await rowOf(slug)).status).toBe('open');
  });
});

describe('a removed challenge', () => {
  it('is cancelled by the system once, however often the event comes, and the owner gets the reward back', async () => {
    const before = await settledWalletOf(platform, owner);
    const slug = await newChallenge(700);
    const { id } = await rowOf(slug);
    // Mid-way: accepted and its video in review.
    await transition(db(), id, { action: 'accept', actors: ['challenged'], actorId: friend.id });
    await transition(db(), id, {
      action: 'videoProcessed',
      actors: ['system'],
      actorId: null,
      videoId: randomUUID(),
    });
    const held = await settledWalletOf(platform, owner);
    expect(held.availableAmount).toBe(before.availableAmount - 700);

    await publishModeration(moderationEvent('ChallengeRemoved', id), 2);
    await eventually(async () =>
      expect(await rowOf(slug)).toMatchObject({ moderation: 'removed', status: 'cancelled' }),
    );
    const after = await settledWalletOf(platform, owner);
    expect(after.availableAmount).toBe(before.availableAmount);
    expect(after.freezeAmount).toBe(before.freezeAmount);
    expect(await db().outboxEvent.count({ where: { key: id, type: 'ChallengeCancelled' } })).toBe(
      1,
    );
    expect(await seenBy(slug, owner)).toEqual({ identifier: 'challenge_not_found', listed: false });
    expect((await seenBy(slug, moderator)).identifier).toBe('ok');
  });

  it('leaves an ended challenge as it ended, only hidden', async () => {
    const slug = await newChallenge(200);
    const { id } = await rowOf(slug);
    await transition(db(), id, {
      action: 'decline',
      actors: ['challenged'],
      actorId: friend.id,
      reason: 'No.',
    });
    await publishModeration(moderationEvent('ChallengeRemoved', id));
    await eventually(async () =>
      expect(await rowOf(slug)).toMatchObject({ moderation: 'removed', status: 'refused' }),
    );
  });
});
