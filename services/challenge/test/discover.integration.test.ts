import { randomUUID } from 'node:crypto';
import { newEvent } from '@challenge/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteTopics,
  eventually,
  graphql,
  startTestService,
  uniqueTopicPrefix,
  type Caller,
  type TestService,
} from '@challenge/testing';
import { buildApp, type ChallengeApp } from '../src/app.ts';
import { insertChallenge, type NewChallengeRow } from '../src/data/challenges.ts';
import { discoverPagePlan } from '../src/data/social.ts';
import { publishIdentity } from './support/platform.ts';

/** Discover lists and profile lists (docs/adr/0043 to 0045), on a database of this file's own. */
const topicPrefix = uniqueTopicPrefix();
let service: TestService<ChallengeApp>;

beforeAll(async () => {
  service = await startTestService('challenge', buildApp, { topicPrefix });
});

afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

let minute = 0;
/** A challenge created one minute after the previous one, so that the order is known. */
function seed(overrides: Partial<NewChallengeRow> = {}) {
  minute += 1;
  return insertChallenge(service.app.db, {
    slug: `discover-${minute}-${randomUUID().slice(0, 8)}`,
    ownerId: randomUUID(),
    challengedUserId: randomUUID(),
    name: `Challenge ${minute}`,
    description: 'Do it.',
    rewardCents: 500n,
    status: 'open',
    visibility: 'public',
    expirationDate: new Date('2030-01-15T12:00:00.000Z'),
    expirationTimeWeeks: 2,
    ...overrides,
  }).then(async (row) => {
    const createdAt = new Date(Date.UTC(2026, 0, 1, 0, minute));
    await service.app.db.challenge.update({ where: { id: row.id }, data: { createdAt } });
    return row;
  });
}

const DISCOVER = /* GraphQL */ `
  query ($input: DiscoverChallengesInput) {
    discoverChallenges(input: $input) {
      status {
        success
        identifier
        message
      }
      challenges {
        slug
        visibility
        challengeType
        status
        challengeLikesCount
        hasLiked
      }
      pagination {
        currentPage
        totalPages
        totalCount
      }
    }
  }
`;

type DiscoverAnswer = {
  data?: { discoverChallenges?: { challenges?: { slug: string }[] | null } };
};
const slugsOf = (answer: DiscoverAnswer) =>
  (answer.data?.discoverChallenges?.challenges ?? []).map((c) => c.slug);

describe('discoverChallenges', () => {
  // One world for the whole describe block: each test reads it, none changes it.
  const owner = randomUUID();
  const challenged = randomUUID();
  const follower = randomUUID();
  let world: Record<string, { slug: string; id: string }>;

  beforeAll(async () => {
    world = {
      soloOpen: await seed({ ownerId: owner }),
      duelAccepted: await seed({ challengeType: 'duel', status: 'accepted' }),
      privateMine: await seed({
        ownerId: owner,
        challengedUserId: challenged,
        visibility: 'private',
      }),
      draft: await seed({ status: 'draft' }),
      cancelled: await seed({ status: 'cancelled' }),
      privateOther: await seed({ visibility: 'private' }),
      soloCompleted: await seed({ status: 'completed' }),
      duelOfOwner: await seed({ ownerId: owner, challengeType: 'duel', status: 'review' }),
    };
  });

  it('shows a visitor public challenges that are open, running or finished, newest first', async () => {
    const answer = await graphql(service.url, DISCOVER, {});
    expect(answer.data?.discoverChallenges.status.success).toBe(true);
    expect(slugsOf(answer)).toEqual([
      world.duelOfOwner!.slug,
      world.soloCompleted!.slug,
      world.duelAccepted!.slug,
      world.soloOpen!.slug,
    ]);
    expect(answer.data?.discoverChallenges.pagination).toEqual({
      currentPage: 1,
      totalPages: 1,
      totalCount: 4,
    });
  });

  it('adds a private challenge for its parties only (staff included: discover is no staff tool)', async () => {
    for (const party of [owner, challenged]) {
      const answer = await graphql(service.url, DISCOVER, {}, { id: party });
      expect(slugsOf(answer)).toEqual([
        world.duelOfOwner!.slug,
        world.soloCompleted!.slug,
        world.privateMine!.slug,
        world.duelAccepted!.slug,
        world.soloOpen!.slug,
      ]);
      expect(answer.data?.discoverChallenges.pagination.totalCount).toBe(5);
    }
    const staff = await graphql(
      service.url,
      DISCOVER,
      {},
      { id: randomUUID(), roles: ['user', 'admin'] },
    );
    expect(slugsOf(staff)).not.toContain(world.privateOther!.slug);
    expect(slugsOf(staff)).toHaveLength(4);
  });

  it('filters solo and duel challenges and pages through them', async () => {
    const solo = await graphql(service.url, DISCOVER, { input: { list: 'solo' } });
    expect(slugsOf(solo)).toEqual([world.soloCompleted!.slug, world.soloOpen!.slug]);
    const duel = await graphql(service.url, DISCOVER, { input: { list: 'duel' } }, { id: owner });
    expect(slugsOf(duel)).toEqual([world.duelOfOwner!.slug, world.duelAccepted!.slug]);
    const page2 = await graphql(
      service.url,
      DISCOVER,
      { input: { page: 2, itemsPerPage: 2 } },
      { id: owner },
    );
    expect(slugsOf(page2)).toEqual([world.privateMine!.slug, world.duelAccepted!.slug]);
    expect(page2.data?.discoverChallenges.pagination).toEqual({
      currentPage: 2,
      totalPages: 3,
      totalCount: 5,
    });
  });

  it('refuses an unknown list and pages beyond 10000 items', async () => {
    const unknown = await graphql(service.url, DISCOVER, { input: { list: 'everything' } });
    expect(unknown.data?.discoverChallenges.status.identifier).toBe('invalid_input');
    const deep = await graphql(service.url, DISCOVER, { input: { page: 101, itemsPerPage: 100 } });
    expect(deep.data?.discoverChallenges.status.identifier).toBe('invalid_input');
  });

  it('reads each list from its partial index, whose predicate the statements keep implying', async () => {
    const base = { skip: 0, take: 20, countLimit: 10_000 } as const;
    const viewer = randomUUID();
    // A visitor and a logged-in viewer (whose own private challenges are merged in).
    for (const viewerId of [null, viewer]) {
      expect(await discoverPagePlan(service.app.db, { ...base, viewerId })).toContain(
        'challenges_discover_idx',
      );
      expect(
        await discoverPagePlan(service.app.db, { ...base, viewerId, challengeType: 'duel' }),
      ).toContain('challenges_discover_type_idx');
    }
    const following = await discoverPagePlan(service.app.db, {
      ...base,
      viewerId: viewer,
      followedBy: viewer,
    });
    expect(following).toContain('challenges_discover_owner_idx');
  });

  it('lists the challenges of the people one follows, from identity’s follow events', async () => {
    const visitor = await graphql(service.url, DISCOVER, { input: { list: 'following' } });
    expect(visitor.data?.discoverChallenges.status.identifier).toBe('unauthorized');

    const followed = (payload: 'UserFollowed' | 'UserUnfollowed') =>
      newEvent(payload, {
        aggregateId: follower,
        actorId: follower,
        data: { followerId: follower, followeeId: owner },
      });
    await publishIdentity(topicPrefix, [followed('UserFollowed')]);
    await eventually(async () => {
      const answer = await graphql(
        service.url,
        DISCOVER,
        { input: { list: 'following' } },
        { id: follower },
      );
      // The owner's public challenges; their private one is not the follower's to see.
      expect(slugsOf(answer)).toEqual([world.duelOfOwner!.slug, world.soloOpen!.slug]);
    });
    await publishIdentity(topicPrefix, [followed('UserUnfollowed')]);
    await eventually(async () => {
      const answer = await graphql(
        service.url,
        DISCOVER,
        { input: { list: 'following' } },
        { id: follower },
      );
      expect(slugsOf(answer)).toEqual([]);
    });
  });
});

const PROFILE_ENTITY = /* GraphQL */ `
  query ($r: [_Any!]!) {
    _entities(representations: $r) {
      ... on PublicProfile {
        uploadedVideosCount
        runningChallengesCount
        completedChallengesCount
        respectedVideosCount
        uploadedVideos {
          slug
        }
        runningChallenges {
          slug
        }
        completedChallenges {
          slug
        }
        respectedVideos {
          slug
        }
      }
    }
  }
`;
const CURRENT_ENTITY = /* GraphQL */ `
  query ($r: [_Any!]!) {
    _entities(representations: $r) {
      ... on CurrentUserProfile {
        uploadedVideosCount
        runningChallengesCount
        completedChallengesCount
        respectedVideosCount
      }
    }
  }
`;

describe('profile lists (PublicProfile and CurrentUserProfile, extended by challenge)', () => {
  const user = randomUUID();
  let rows: Record<string, { slug: string; id: string }>;

  beforeAll(async () => {
    rows = {
      running: await seed({ ownerId: user, status: 'accepted' }),
      uploaded: await seed({ challengedUserId: user, status: 'review' }),
      completed: await seed({ challengedUserId: user, status: 'completed' }),
      privateCompleted: await seed({ ownerId: user, status: 'completed', visibility: 'private' }),
      refused: await seed({ ownerId: user, status: 'refused' }),
      respected: await seed({ status: 'completed' }),
    };
    await graphql(
      service.url,
      `
        mutation ($slug: String!) {
          likeChallenge(input: { slug: $slug }) {
            status {
              success
            }
          }
        }
      `,
      { slug: rows.respected!.slug },
      { id: user },
    );
  });

  const profile = (showsPrivate: boolean, viewer?: Caller) =>
    graphql(
      service.url,
      PROFILE_ENTITY,
      { r: [{ __typename: 'PublicProfile', id: user, showsPrivate }] },
      viewer,
    );

  it('lists uploaded videos, running and completed challenges and respected videos, public ones', async () => {
    const answer = await profile(false);
    expect(answer.data?._entities[0]).toEqual({
      uploadedVideosCount: 2,
      runningChallengesCount: 2,
      completedChallengesCount: 1,
      respectedVideosCount: 1,
      uploadedVideos: [{ slug: rows.completed!.slug }, { slug: rows.uploaded!.slug }],
      runningChallenges: [{ slug: rows.uploaded!.slug }, { slug: rows.running!.slug }],
      completedChallenges: [{ slug: rows.completed!.slug }],
      respectedVideos: [{ slug: rows.respected!.slug }],
    });
  });

  it('reveals private items to the owner who asks, and to nobody else whatever they send', async () => {
    const own = await profile(true, { id: user });
    expect(own.data?._entities[0]).toMatchObject({
      completedChallengesCount: 2,
      completedChallenges: [{ slug: rows.privateCompleted!.slug }, { slug: rows.completed!.slug }],
    });
    const ownNotAsked = await profile(false, { id: user });
    expect(ownNotAsked.data?._entities[0].completedChallengesCount).toBe(1);
    const others: (Caller | undefined)[] = [
      undefined,
      { id: randomUUID() },
      { id: randomUUID(), roles: ['user', 'admin'] },
    ];
    for (const viewer of others) {
      const other = await profile(true, viewer);
      expect(other.data?._entities[0]).toMatchObject({
        completedChallengesCount: 1,
        completedChallenges: [{ slug: rows.completed!.slug }],
      });
    }
  });

  it("gives the current user their own counts, private included, and nobody else's", async () => {
    const own = await graphql(
      service.url,
      CURRENT_ENTITY,
      { r: [{ __typename: 'CurrentUserProfile', id: user }] },
      { id: user },
    );
    expect(own.data?._entities[0]).toEqual({
      uploadedVideosCount: 2,
      runningChallengesCount: 2,
      completedChallengesCount: 2,
      respectedVideosCount: 1,
    });
    const other = await graphql(
      service.url,
      CURRENT_ENTITY,
      { r: [{ __typename: 'CurrentUserProfile', id: user }] },
      { id: randomUUID() },
    );
    expect(other.data?._entities[0].completedChallengesCount).toBe(1);
  });

  it("keeps other people's private challenges out of a viewer's own respected videos and counts", async () => {
    // A moderator may see (and so respect) a private challenge; a fan respected a public one that
    // its owner made private afterwards. Neither is theirs: their own lists never show it.
    const fan = randomUUID();
    const moderator = randomUUID();
    const madePrivate = await seed({ status: 'completed' });
    const privateOne = await seed({ status: 'accepted', visibility: 'private' });
    const stillPublic = await seed({ status: 'completed' });
    const like = (slug: string, viewer: Caller) =>
      graphql(
        service.url,
        'mutation ($slug: String!) { likeChallenge(input: { slug: $slug }) { status { success identifier } } }',
        { slug },
        viewer,
      );
    for (const slug of [madePrivate.slug, stillPublic.slug]) {
      expect((await like(slug, { id: fan })).data?.likeChallenge.status.success).toBe(true);
    }
    const staff: Caller = { id: moderator, roles: ['user', 'moderator'] };
    for (const slug of [privateOne.slug, stillPublic.slug]) {
      expect((await like(slug, staff)).data?.likeChallenge.status.success).toBe(true);
    }
    await service.app.db.challenge.update({
      where: { id: madePrivate.id },
      data: { visibility: 'private' },
    });

    for (const viewer of [{ id: fan }, staff]) {
      const own = await graphql(
        service.url,
        PROFILE_ENTITY,
        { r: [{ __typename: 'PublicProfile', id: viewer.id, showsPrivate: true }] },
        viewer,
      );
      expect(own.data?._entities[0]).toMatchObject({
        respectedVideosCount: 1,
        respectedVideos: [{ slug: stillPublic.slug }],
      });
      const current = await graphql(
        service.url,
        CURRENT_ENTITY,
        { r: [{ __typename: 'CurrentUserProfile', id: viewer.id }] },
        viewer,
      );
      expect(current.data?._entities[0].respectedVideosCount).toBe(1);
    }
  });
});
