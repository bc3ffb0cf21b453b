import {
  deleteTopics,
  graphql,
  startTestService,
  testIdentityConfig,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type IdentityApp } from '../src/app.ts';
import { seedUser } from '../src/seed.ts';

/** Identity's part of issue 14: follow events, discoverUsers, showsPrivate (docs/adr/0044, 0045). */
const STATUS = 'status { success identifier }';
const FOLLOW = `mutation($input: FollowInput!) { followUser(input: $input) { ${STATUS} } }`;
const UNFOLLOW = `mutation($input: FollowInput!) { unfollowUser(input: $input) { ${STATUS} } }`;
const DISCOVER = `query($input: DiscoverUsersInput) { discoverUsers(input: $input) { ${STATUS} items { id username } pagination { currentPage totalPages totalCount } } }`;
const PROFILE = `query($username: String!, $showPrivate: Boolean) { getUserProfile(username: $username, showPrivate: $showPrivate) { ${STATUS} profile { id showsPrivate } } }`;

describe('identity: social and discovery', () => {
  const topicPrefix = uniqueTopicPrefix();
  let identity: TestService<IdentityApp>;
  const as = (user: { id: string }) => ({ id: user.id });

  beforeAll(async () => {
    identity = await startTestService(
      'identity',
      async (runtime, url) => buildApp(runtime, await testIdentityConfig(url)),
      { topicPrefix },
    );
  });
  afterAll(async () => {
    await identity?.stop();
    await deleteTopics(topicPrefix);
  });

  it('announces a follow and an unfollow (UserFollowed, UserUnfollowed) with the change', async () => {
    const star = await seedUser(identity.app.db);
    const fan = await seedUser(identity.app.db);
    await graphql(identity.url, FOLLOW, { input: { username: star.username } }, as(fan));
    // A redundant follow changes nothing and announces nothing.
    await graphql(identity.url, FOLLOW, { input: { username: star.username } }, as(fan));
    await graphql(identity.url, UNFOLLOW, { input: { username: star.username } }, as(fan));
    const events = await identity.app.db.outboxEvent.findMany({
      where: { type: { in: ['UserFollowed', 'UserUnfollowed'] }, key: fan.id },
      orderBy: { seq: 'asc' },
    });
    expect(events.map((event) => event.type)).toEqual(['UserFollowed', 'UserUnfollowed']);
    expect(events[0]?.payload).toMatchObject({
      data: { followerId: fan.id, followeeId: star.id },
    });
  });

  it('lists all public, active users newest first, and the ones the viewer follows', async () => {
    const viewer = await seedUser(identity.app.db);
    const newer = await seedUser(identity.app.db);
    const hidden = await seedUser(identity.app.db);
    await identity.app.db.user.update({
      where: { id: hidden.id },
      data: { publicProfile: false },
    });
    const newest = await seedUser(identity.app.db);
    const all = await graphql(identity.url, DISCOVER, { input: { itemsPerPage: 100 } });
    const usernames = all.data!.discoverUsers.items.map(
      (user: { username: string }) => user.username,
    );
    expect(usernames.slice(0, 3)).toEqual([newest.username, newer.username, viewer.username]);
    expect(usernames).not.toContain(hidden.username);
    expect(all.data!.discoverUsers.status.success).toBe(true);

    await graphql(identity.url, FOLLOW, { input: { username: newer.username } }, as(viewer));
    const following = await graphql(
      identity.url,
      DISCOVER,
      { input: { list: 'following' } },
      as(viewer),
    );
    expect(following.data!.discoverUsers).toEqual({
      status: { success: true, identifier: 'ok' },
      items: [{ id: newer.id, username: newer.username }],
      pagination: { currentPage: 1, totalPages: 1, totalCount: 1 },
    });
    const visitor = await graphql(identity.url, DISCOVER, { input: { list: 'following' } });
    expect(visitor.data!.discoverUsers.status.identifier).toBe('unauthorized');
    const deep = await graphql(identity.url, DISCOVER, {
      input: { page: 200, itemsPerPage: 100 },
    });
    expect(deep.data!.discoverUsers.status.identifier).toBe('invalid_input');
  });

  it('shows private items (showsPrivate) only to the profile owner who asks', async () => {
    const owner = await seedUser(identity.app.db);
    const other = await seedUser(identity.app.db);
    const ask = (as_: { id: string } | undefined, showPrivate: boolean) =>
      graphql(identity.url, PROFILE, { username: owner.username, showPrivate }, as_);
    expect((await ask(as(owner), true)).data!.getUserProfile.profile.showsPrivate).toBe(true);
    expect((await ask(as(owner), false)).data!.getUserProfile.profile.showsPrivate).toBe(false);
    expect((await ask(as(other), true)).data!.getUserProfile.profile.showsPrivate).toBe(false);
    expect((await ask(undefined, true)).data!.getUserProfile.profile.showsPrivate).toBe(false);
  });
});
