import { randomUUID } from 'node:crypto';
import { newEvent } from '@challenge/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteTopics,
  startTestService,
  uniqueTopicPrefix,
  type TestService,
  graphql,
  readiness,
  eventually,
} from '@challenge/testing';
import { buildApp, type ChallengeApp } from '../src/app.ts';
import { insertChallenge, type NewChallengeRow } from '../src/data/challenges.ts';
import { findKnownUser } from '../src/data/users.ts';
import { publishIdentity } from './support/platform.ts';

const topicPrefix = uniqueTopicPrefix();
let service: TestService<ChallengeApp>;

beforeAll(async () => {
  service = await startTestService('challenge', buildApp, { topicPrefix });
});

afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

/** A challenge row with sensible defaults and a unique slug; override what a test is about. */
function seedChallenge(overrides: Partial<NewChallengeRow> = {}) {
  return insertChallenge(service.app.db, {
    slug: `run-5-km-${randomUUID().slice(0, 8)}`,
    ownerId: randomUUID(),
    challengedUserId: randomUUID(),
    name: 'Run 5 km',
    description: 'Run 5 km in under 25 minutes.',
    rewardCents: 1250n,
    status: 'open',
    visibility: 'public',
    expirationDate: new Date('2030-01-15T12:00:00.000Z'),
    expirationTimeWeeks: 2,
    ...overrides,
  });
}

const BY_SLUG = /* GraphQL */ `
  query ($slug: String!) {
    getChallengeBySlug(input: { slug: $slug }) {
      status {
        success
        identifier
        message
      }
      challenge {
        id
        slug
        challengeName
        challengeDescription
        challengeReward
        status
        visibility
        expirationDate
        expirationTimeWeeks
        owner {
          id
        }
        challengedUser {
          id
        }
      }
    }
  }
`;

const ENTITIES = /* GraphQL */ `
  query ($r: [_Any!]!) {
    _entities(representations: $r) {
      ... on Challenge {
        id
        slug
      }
    }
  }
`;

describe('getChallengeBySlug', () => {
  it('answers invalid_slug for a slug that is not lowercase words joined by dashes', async () => {
    for (const slug of ['Run-5-km', 'run--5', 'run_5', '-run', 'a'.repeat(121)]) {
      const { data } = await graphql(service.url, BY_SLUG, { slug });
      expect(data?.getChallengeBySlug.status, slug).toEqual({
        success: false,
        identifier: 'invalid_slug',
        message: expect.any(String),
      });
      expect(data?.getChallengeBySlug.challenge).toBeNull();
    }
  });

  it('answers challenge_not_found for a well-formed slug that no challenge has', async () => {
    const { data } = await graphql(
      service.url,
      BY_SLUG,
      { slug: 'no-such-challenge' },
      { id: randomUUID() },
    );
    expect(data?.getChallengeBySlug.status).toMatchObject({
      success: false,
      identifier: 'challenge_not_found',
    });
    expect(data?.getChallengeBySlug.challenge).toBeNull();
  });

  it('shows a public challenge to a visitor and to any logged-in user', async () => {
    const seeded = await seedChallenge();
    const expected = {
      id: seeded.id,
      slug: seeded.slug,
      challengeName: 'Run 5 km',
      challengeDescription: 'Run 5 km in under 25 minutes.',
      challengeReward: 1250,
      status: 'open',
      visibility: 'public',
      expirationDate: '2030-01-15T12:00:00.000Z',
      expirationTimeWeeks: 2,
      owner: { id: seeded.ownerId },
      challengedUser: { id: seeded.challengedUserId },
    };

    const anonymous = await graphql(service.url, BY_SLUG, { slug: seeded.slug });
    expect(anonymous.data?.getChallengeBySlug).toEqual({
      status: { success: true, identifier: 'ok', message: expect.any(String) },
      challenge: expected,
    });
    const stranger = await graphql(
      service.url,
      BY_SLUG,
      { slug: seeded.slug },
      { id: randomUUID() },
    );
    expect(stranger.data?.getChallengeBySlug.challenge).toEqual(expected);
  });

  it('returns no challenged user while the challenge targets an e-mail address only', async () => {
    const seeded = await seedChallenge({
      challengedUserId: null,
      challengedEmail: 'friend@example.com',
    });
    const { data } = await graphql(service.url, BY_SLUG, { slug: seeded.slug });
    expect(data?.getChallengeBySlug.challenge).toMatchObject({
      id: seeded.id,
      challengedUser: null,
    });
  });

  it('hides a private challenge from visitors and strangers, shows it to its owner and challenged user', async () => {
    const seeded = await seedChallenge({ visibility: 'private' });
    const ask = (viewer?: string) =>
      graphql(service.url, BY_SLUG, { slug: seeded.slug }, viewer ? { id: viewer } : undefined);

    for (const hidden of [await ask(), await ask(randomUUID())]) {
      expect(hidden.data?.getChallengeBySlug.status.identifier).toBe('challenge_not_found');
      expect(hidden.data?.getChallengeBySlug.challenge).toBeNull();
    }
    for (const viewer of [seeded.ownerId, seeded.challengedUserId!]) {
      const { data } = await ask(viewer);
      expect(data?.getChallengeBySlug.status.identifier).toBe('ok');
      expect(data?.getChallengeBySlug.challenge).toMatchObject({
        id: seeded.id,
        visibility: 'private',
      });
    }
  });
});

describe('Challenge entity references', () => {
  it('resolves a challenge by id, applying the same visibility rule as the slug lookup', async () => {
    const open = await seedChallenge();
    const secret = await seedChallenge({ visibility: 'private' });
    const representations = [
      { __typename: 'Challenge', id: open.id },
      { __typename: 'Challenge', id: secret.id },
      { __typename: 'Challenge', id: randomUUID() },
      { __typename: 'Challenge', id: 'not-a-uuid' },
    ];

    const stranger = await graphql(
      service.url,
      ENTITIES,
      { r: representations },
      { id: randomUUID() },
    );
    expect(stranger.errors).toBeUndefined();
    expect(stranger.data?._entities).toEqual([{ id: open.id, slug: open.slug }, null, null, null]);

    const owner = await graphql(
      service.url,
      ENTITIES,
      { r: representations },
      { id: secret.ownerId },
    );
    expect(owner.data?._entities.slice(0, 2)).toEqual([
      { id: open.id, slug: open.slug },
      { id: secret.id, slug: secret.slug },
    ]);
  });
});

describe('operations', () => {
  it('is ready when its database, Redis and Kafka answer', async () => {
    const { httpStatus, body } = await readiness(service.url);
    expect(httpStatus).toBe(200);
    expect(body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok', kafka: 'ok' } });
  });
});

describe('createChallenge while wallet cannot be reached', () => {
  it('answers status_updated_failed_with_wallet_issue and leaves only an unlisted draft for the sweep', async () => {
    // This service runs without a wallet: every escrow call fails.
    const [owner, friend] = [randomUUID(), randomUUID()];
    await publishIdentity(
      topicPrefix,
      [owner, friend].map((id) =>
        newEvent('UserRegistered', {
          aggregateId: id,
          actorId: id,
          data: {
            userId: id,
            username: `u${id.slice(0, 8)}`,
            email: `${id}@example.com`,
            locale: 'en',
            birthday: '1990-01-01',
          },
        }),
      ),
    );
    // Both: the two events are keyed by different users, so they may land in different
    // partitions and be projected in either order.
    await eventually(async () => {
      expect(await findKnownUser(service.app.db, friend)).not.toBeNull();
      expect(await findKnownUser(service.app.db, owner)).not.toBeNull();
    });
    const { data } = await graphql(
      service.url,
      `
        mutation ($input: CreateChallengeInput!) {
          createChallenge(input: $input) {
            status {
              success
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
          challengeName: 'Run 5 km',
          challengeDescription: 'Fast.',
          challengeReward: 500,
          tags: ['run'],
          acceptCredit: true,
          challengedUsername: `u${friend.slice(0, 8)}`,
        },
      },
      { id: owner },
    );
    expect(data?.createChallenge).toEqual({
      status: { success: false, identifier: 'status_updated_failed_with_wallet_issue' },
      challenges: null,
    });
    // Whether the hold reached wallet is unknown and its release was not confirmed: the draft
    // stays, never listed, for the stale-draft sweep to release and remove (ADR 72).
    const rows = await service.app.db.challenge.findMany({ where: { ownerId: owner } });
    expect(rows.map((row) => row.status)).toEqual(['draft']);
    const { data: listed } = await graphql(
      service.url,
      '{ getDashboardChallenges { status { success } runningChallengesCount runningChallenges { id } } }',
      {},
      { id: owner },
    );
    expect(listed?.getDashboardChallenges).toEqual({
      status: { success: true },
      runningChallengesCount: 0,
      runningChallenges: [],
    });
  });
});
