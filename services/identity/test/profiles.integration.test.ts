import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent } from '@challenge/events';
import {
  deleteTopics,
  graphql,
  produceRaw,
  startTestService,
  testIdentityConfig,
  uniqueTopicPrefix,
  waitForCaughtUp,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type IdentityApp } from '../src/app.ts';
import { seedUser } from '../src/seed.ts';

const STATUS = 'status { success identifier }';
const PROFILE = `query($username: String!) { getUserProfile(username: $username) { ${STATUS} profile { id username displayName bio challengeable publicProfile followersCount followingCount isFollowing } } }`;
const SETTINGS = `{ getSettings { ${STATUS} settings { displayName bio avatar challengeable minimumChallengeEnabled minimumChallengeValue publicProfile hasPassword } } }`;
const UPDATE = `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { ${STATUS} displayName bio avatar } }`;
const mutation = (name: string, type: string) =>
  `mutation($input: ${type}!) { ${name}(input: $input) { ${STATUS} } }`;
const FOLLOWERS = `query($username: String!, $page: Int, $itemsPerPage: Int) { getFollowers(username: $username, page: $page, itemsPerPage: $itemsPerPage) { ${STATUS} items { username } pagination { currentPage totalPages totalCount } } }`;
const DELETE = `mutation { deleteUser { ${STATUS} } }`;

describe('identity: profiles, settings, follows and deletion', () => {
  const topicPrefix = uniqueTopicPrefix();
  let identity: TestService<IdentityApp>;
  const as = (user: { id: string }) => ({ id: user.id });

  beforeAll(async () => {
    identity = await startTestService(
      'identity',
      async (runtime, url) => buildApp(runtime, await testIdentityConfig(url)),
      {
        topicPrefix,
      },
    );
  });
  afterAll(async () => {
    await identity?.stop();
    await deleteTopics(topicPrefix);
  });

  it('updates the own profile and settings, and shows them to others', async () => {
    const owner = await seedUser(identity.app.db);
    const viewer = await seedUser(identity.app.db);
    const updated = await graphql(
      identity.url,
      UPDATE,
      { input: { displayName: '  Sam ', bio: 'I dare you.' } },
      as(owner),
    );
    expect(updated.data!.updateProfile).toEqual({
      status: { success: true, identifier: 'ok' },
      displayName: 'Sam',
      bio: 'I dare you.',
      avatar: null,
    });
    await graphql(
      identity.url,
      mutation('updateMinimalChallenge', 'UpdateMinimalChallengeInput'),
      { input: { minimumChallengeEnabled: true, minimumChallengeValue: 500 } },
      as(owner),
    );
    await graphql(
      identity.url,
      mutation('updateChallengeableProfile', 'UpdateChallengeableProfileInput'),
      { input: { challengeable: false } },
      as(owner),
    );

    const settings = await graphql(identity.url, SETTINGS, {}, as(owner));
    expect(settings.data!.getSettings.settings).toEqual({
      displayName: 'Sam',
      bio: 'I dare you.',
      avatar: null,
      challengeable: false,
      minimumChallengeEnabled: true,
      minimumChallengeValue: 500,
      publicProfile: true,
      hasPassword: false,
    });
    const seen = await graphql(identity.url, PROFILE, { username: owner.username }, as(viewer));
    expect(seen.data!.getUserProfile.profile).toMatchObject({
      displayName: 'Sam',
      challengeable: false,
      isFollowing: false,
    });
    const tooLong = await graphql(
      identity.url,
      UPDATE,
      { input: { displayName: 'x'.repeat(61) } },
      as(owner),
    );
    expect(tooLong.data!.updateProfile.status.identifier).toBe('invalid_input');
  });

  it('keeps the show/hide amounts choice with the account (hideAvailableAmount)', async () => {
    const owner = await seedUser(identity.app.db);
    const CURRENT = `{ getCurrentUserProfile { ${STATUS} profile { hideAvailableAmount displayName } } }`;
    const before = await graphql(identity.url, CURRENT, {}, as(owner));
    expect(before.data!.getCurrentUserProfile.profile.hideAvailableAmount).toBe(true);
    const shown = await graphql(
      identity.url,
      UPDATE,
      { input: { hideAvailableAmount: false } },
      as(owner),
    );
    expect(shown.data!.updateProfile.status).toEqual({ success: true, identifier: 'ok' });
    const after = await graphql(identity.url, CURRENT, {}, as(owner));
    // Only that field changed.
    expect(after.data!.getCurrentUserProfile.profile).toEqual({
      hideAvailableAmount: false,
      displayName: before.data!.getCurrentUserProfile.profile.displayName,
    });
    const invalid = await graphql(
      identity.url,
      UPDATE,
      { input: { hideAvailableAmount: null } },
      as(owner),
    );
    expect(invalid.data!.updateProfile.status.identifier).toBe('invalid_input');
  });

  // Issue 22 (spec audit): showPrivateChallenges is a setting of the account, which the profile
  // reads to include the owner's private items; false by default.
  it('keeps showPrivateChallenges with the account', async () => {
    const owner = await seedUser(identity.app.db);
    const CURRENT = `{ getCurrentUserProfile { ${STATUS} profile { showPrivateChallenges hideAvailableAmount } } }`;
    const before = await graphql(identity.url, CURRENT, {}, as(owner));
    expect(before.data!.getCurrentUserProfile.profile.showPrivateChallenges).toBe(false);
    const saved = await graphql(
      identity.url,
      UPDATE,
      { input: { showPrivateChallenges: true } },
      as(owner),
    );
    expect(saved.data!.updateProfile.status).toEqual({ success: true, identifier: 'ok' });
    const after = await graphql(identity.url, CURRENT, {}, as(owner));
    expect(after.data!.getCurrentUserProfile.profile).toEqual({
      showPrivateChallenges: true,
      hideAvailableAmount: before.data!.getCurrentUserProfile.profile.hideAvailableAmount,
    });
  });

  it('hides a private profile from others but not from its owner', async () => {
    const owner = await seedUser(identity.app.db);
    const other = await seedUser(identity.app.db);
    await graphql(
      identity.url,
      mutation('updatePublicProfile', 'UpdatePublicProfileInput'),
      { input: { publicProfile: false } },
      as(owner),
    );
    expect(
      (await graphql(identity.url, PROFILE, { username: owner.username }, as(other))).data!
        .getUserProfile,
    ).toEqual({
      status: { success: false, identifier: 'private_profile' },
      profile: null,
    });
    expect(
      (await graphql(identity.url, PROFILE, { username: owner.username })).data!.getUserProfile
        .status.identifier,
    ).toBe('private_profile');
    expect(
      (await graphql(identity.url, PROFILE, { username: owner.username }, as(owner))).data!
        .getUserProfile.status.success,
    ).toBe(true);
    expect(
      (await graphql(identity.url, PROFILE, { username: 'no_such_user_x' })).data!.getUserProfile
        .status.identifier,
    ).toBe('user_not_found');
  });

  it('follows and unfollows, with counts and paginated lists', async () => {
    const star = await seedUser(identity.app.db);
    const fans = await Promise.all([1, 2, 3].map(() => seedUser(identity.app.db)));
    const follow = mutation('followUser', 'FollowInput');
    for (const fan of fans) {
      const response = await graphql(
        identity.url,
        follow,
        { input: { username: star.username } },
        as(fan),
      );
      expect(response.data!.followUser.status.success).toBe(true);
    }
    expect(
      (await graphql(identity.url, follow, { input: { username: star.username } }, as(fans[0]!)))
        .data!.followUser.status.identifier,
    ).toBe('redundant_mutation');
    expect(
      (await graphql(identity.url, follow, { input: { username: star.username } }, as(star))).data!
        .followUser.status.identifier,
    ).toBe('invalid_action');

    const profile = await graphql(identity.url, PROFILE, { username: star.username }, as(fans[0]!));
    expect(profile.data!.getUserProfile.profile).toMatchObject({
      followersCount: 3,
      followingCount: 0,
      isFollowing: true,
    });
    const page = await graphql(identity.url, FOLLOWERS, {
      username: star.username,
      page: 1,
      itemsPerPage: 2,
    });
    expect(page.data!.getFollowers).toEqual({
      status: { success: true, identifier: 'ok' },
      items: [{ username: fans[2]!.username }, { username: fans[1]!.username }],
      pagination: { currentPage: 1, totalPages: 2, totalCount: 3 },
    });

    await graphql(
      identity.url,
      mutation('unfollowUser', 'FollowInput'),
      { input: { username: star.username } },
      as(fans[0]!),
    );
    const after = await graphql(identity.url, PROFILE, { username: star.username }, as(fans[0]!));
    expect(after.data!.getUserProfile.profile).toMatchObject({
      followersCount: 2,
      isFollowing: false,
    });
    // Each change, and only a change, is announced (moderation's conflict-of-interest rule).
    const announced = await identity.app.db.outboxEvent.findMany({
      where: {
        type: { in: ['UserFollowed', 'UserUnfollowed'] },
        payload: { path: ['data', 'followeeId'], equals: star.id },
      },
      orderBy: { seq: 'asc' },
    });
    expect(
      announced.map((row) => [row.type, row.key, (row.payload as { data: unknown }).data]),
    ).toEqual([
      ...fans.map((fan) => ['UserFollowed', fan.id, { followerId: fan.id, followeeId: star.id }]),
      ['UserUnfollowed', fans[0]!.id, { followerId: fans[0]!.id, followeeId: star.id }],
    ]);
  });

  it('refuses deletion while the wallet holds money or a payout is open, as wallet reports', async () => {
    const rich = await seedUser(identity.app.db);
    const payee = await seedUser(identity.app.db);
    const report = (
      userId: string,
      cents: { availableCents: number; frozenCents: number; openPayoutCents: number },
      version: number,
    ) =>
      newEvent('WalletBalanceChanged', {
        aggregateId: userId,
        actorId: null,
        data: { userId, ...cents, version },
      });
    const events = [
      report(rich.id, { availableCents: 0, frozenCents: 250, openPayoutCents: 0 }, 2),
      report(rich.id, { availableCents: 0, frozenCents: 0, openPayoutCents: 0 }, 1), // late and older: ignored
      report(payee.id, { availableCents: 0, frozenCents: 0, openPayoutCents: 1000 }, 1),
    ];
    await produceRaw(
      topicPrefix,
      TOPICS.wallet,
      events.map((event) => ({ key: event.aggregateId, value: JSON.stringify(event) })),
    );
    await waitForCaughtUp(topicPrefix, 'identity', TOPICS.wallet);

    expect(
      (await graphql(identity.url, DELETE, {}, as(rich))).data!.deleteUser.status.identifier,
    ).toBe('wallet_contains_money');
    expect(
      (await graphql(identity.url, DELETE, {}, as(payee))).data!.deleteUser.status.identifier,
    ).toBe('user_contains_open_payouts');
  });

  it('requests deletion of an empty account; it is then hidden and says account_deletion_requested', async () => {
    const leaving = await seedUser(identity.app.db);
    expect(
      (await graphql(identity.url, DELETE, {}, as(leaving))).data!.deleteUser.status.success,
    ).toBe(true);
    const row = await identity.app.db.user.findUniqueOrThrow({ where: { id: leaving.id } });
    const days = (row.deletionRequestedAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeLessThan(0.01);
    expect(
      (await graphql(identity.url, DELETE, {}, as(leaving))).data!.deleteUser.status.identifier,
    ).toBe('account_deletion_requested');
    const other = await seedUser(identity.app.db);
    expect(
      (await graphql(identity.url, PROFILE, { username: leaving.username }, as(other))).data!
        .getUserProfile.status.identifier,
    ).toBe('user_not_found');
    expect(
      (await graphql(identity.url, PROFILE, { username: randomUUID() })).data!.getUserProfile.status
        .identifier,
    ).toBe('user_not_found');
  });
});
