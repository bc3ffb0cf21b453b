import { randomUUID } from 'node:crypto';
import type { Role } from '@challenge/kit';
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

/** The moderator console's user lists (issue 13): banned (soft, hard) and unverified users. */
const STATUS = 'status { success identifier message }';
const BANNED = `query ($type: String!, $page: Int!, $itemsPerPage: Int) {
  paginatedListOfBannedUsers(type: $type, page: $page, itemsPerPage: $itemsPerPage) {
    ${STATUS} items { id username banType bannedAt } pagination { currentPage totalPages totalCount } } }`;
const UNVERIFIED = `query ($input: PaginatedListOfUnverifiedUsersInput) {
  paginatedListOfUnverifiedUsers(input: $input) {
    ${STATUS} items { id email username phoneNumber birthday createdAt user { id username } }
    pagination { totalCount } } }`;
const BAN = `mutation ($input: BanUserInput!) { banUser(input: $input) { ${STATUS} } }`;
const VERIFY = `mutation ($input: ModeratorVerifyUserInput!) { moderatorVerifyUser(input: $input) { ${STATUS} } }`;

const topicPrefix = uniqueTopicPrefix();
let identity: TestService<IdentityApp>;
let moderator: { id: string; roles: Role[] };
let admin: { id: string; roles: Role[] };

beforeAll(async () => {
  identity = await startTestService(
    'identity',
    async (runtime, url) => buildApp(runtime, await testIdentityConfig(url)),
    { topicPrefix },
  );
  const [m, a] = await Promise.all([
    seedUser(identity.app.db, { roles: ['user', 'moderator'] }),
    seedUser(identity.app.db, { roles: ['admin'] }),
  ]);
  moderator = { id: m.id, roles: ['user', 'moderator'] };
  admin = { id: a.id, roles: ['admin'] };
});

afterAll(async () => {
  await identity?.stop();
  await deleteTopics(topicPrefix);
});

const call = (
  query: string,
  variables: Record<string, unknown>,
  as?: { id: string; roles: Role[] },
) => graphql(identity.url, query, variables, as);

describe('paginatedListOfBannedUsers', () => {
  it('lists soft and hard bans apart, most recent first, to moderators and admins only', async () => {
    const [soft, hardA, hardB] = await Promise.all([1, 2, 3].map(() => seedUser(identity.app.db)));
    const ban = async (userId: string, type: string) =>
      expect(
        (await call(BAN, { input: { userId, type, reason: 'Spam.' } }, moderator)).data?.banUser
          .status.identifier,
      ).toBe('ok');
    await ban(soft!.id, 'soft');
    await ban(hardA!.id, 'hard');
    await ban(hardB!.id, 'hard');

    const hard = await call(BANNED, { type: 'hard', page: 1, itemsPerPage: 100 }, admin);
    expect(hard.data?.paginatedListOfBannedUsers.status.identifier).toBe('ok');
    const hardIds = hard.data?.paginatedListOfBannedUsers.items.map(
      (item: { id: string }) => item.id,
    );
    expect(hardIds.indexOf(hardB!.id)).toBeLessThan(hardIds.indexOf(hardA!.id));
    expect(hardIds).not.toContain(soft!.id);
    expect(hard.data?.paginatedListOfBannedUsers.items).toContainEqual({
      id: hardA!.id,
      username: hardA!.username,
      banType: 'hard',
      bannedAt: expect.any(String),
    });
    const softList = await call(BANNED, { type: 'soft', page: 1, itemsPerPage: 100 }, moderator);
    expect(
      softList.data?.paginatedListOfBannedUsers.items.map((item: { id: string }) => item.id),
    ).toEqual([soft!.id]);

    for (const [as, identifier] of [
      [undefined, 'unauthorized'],
      [{ id: randomUUID(), roles: ['user'] as Role[] }, 'access_denied'],
      [{ id: randomUUID(), roles: ['user', 'referee'] as Role[] }, 'access_denied'],
    ] as const) {
      const refused = await call(BANNED, { type: 'hard', page: 1 }, as);
      expect(refused.data?.paginatedListOfBannedUsers).toMatchObject({
        status: { identifier },
        items: [],
      });
    }
    const wrongType = await call(BANNED, { type: 'temporary', page: 1 }, moderator);
    expect(wrongType.data?.paginatedListOfBannedUsers.status.identifier).toBe('invalid_input');
  });
});

describe('paginatedListOfUnverifiedUsers and moderatorVerifyUser', () => {
  it('lists accounts not verified yet; verifying or banning takes them off the list', async () => {
    const [toVerify, toBan] = await Promise.all([
      seedUser(identity.app.db, {}, { birthday: new Date('1990-04-05') }),
      seedUser(identity.app.db),
    ]);
    const listed = async () => {
      const { data } = await call(UNVERIFIED, { input: { itemsPerPage: 100 } }, moderator);
      expect(data?.paginatedListOfUnverifiedUsers.status.identifier).toBe('ok');
      return data?.paginatedListOfUnverifiedUsers.items as { id: string }[];
    };
    const before = await listed();
    expect(before).toContainEqual({
      id: toVerify!.id,
      email: toVerify!.email,
      username: toVerify!.username,
      phoneNumber: null,
      birthday: '1990-04-05',
      createdAt: expect.any(String),
      user: { id: toVerify!.id, username: toVerify!.username },
    });
    expect(before.map((item) => item.id)).toContain(toBan!.id);

    const verified = await call(VERIFY, { input: { userId: toVerify!.id } }, moderator);
    expect(verified.data?.moderatorVerifyUser.status.identifier).toBe('ok');
    const banned = await call(
      VERIFY,
      { input: { userId: toBan!.id, decision: 'ban', reason: 'Fake identity.' } },
      moderator,
    );
    expect(banned.data?.moderatorVerifyUser.status.identifier).toBe('ok');
    expect(await identity.app.db.user.findUnique({ where: { id: toBan!.id } })).toMatchObject({
      banType: 'hard',
    });
    const after = (await listed()).map((item) => item.id);
    expect(after).not.toContain(toVerify!.id);
    expect(after).not.toContain(toBan!.id);

    for (const as of [undefined, { id: randomUUID(), roles: ['user', 'referee'] as Role[] }]) {
      const refused = await call(UNVERIFIED, {}, as);
      expect(refused.data?.paginatedListOfUnverifiedUsers.status.success).toBe(false);
    }
  });

  it('lists newest first and finds an account by part of its username or e-mail address, in any case (issue 22, point 12)', async () => {
    const mark = randomUUID().slice(0, 8);
    const older = await seedUser(identity.app.db, {
      username: `old_${mark}`,
      email: `older-${mark}@example.test`,
    });
    const newer = await seedUser(identity.app.db, {
      username: `new_${mark}`,
      email: `newer-${mark}@example.test`,
    });
    const ids = async (input: Record<string, unknown>) => {
      const { data } = await call(UNVERIFIED, { input: { itemsPerPage: 100, ...input } }, admin);
      expect(data?.paginatedListOfUnverifiedUsers.status.identifier).toBe('ok');
      return (data?.paginatedListOfUnverifiedUsers.items as { id: string }[]).map(
        (item) => item.id,
      );
    };
    const all = await ids({});
    expect(all.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
    expect(all.indexOf(newer.id)).toBeLessThan(all.indexOf(older.id));
    expect(await ids({ search: mark.toUpperCase() })).toEqual([newer.id, older.id]);
    expect(await ids({ search: `OLD_${mark}` })).toEqual([older.id]);
    expect(await ids({ search: `  newer-${mark}@EXAMPLE ` })).toEqual([newer.id]);
    // LIKE's own characters match themselves only.
    expect(await ids({ search: `%${mark}` })).toEqual([]);
    expect(await ids({ search: `old_${mark}`.replace('_', '%') })).toEqual([]);
    const long = await call(UNVERIFIED, { input: { search: 'x'.repeat(101) } }, admin);
    expect(long.data?.paginatedListOfUnverifiedUsers.status.identifier).toBe('invalid_input');
  });

  it('refuses a moderator who would ban an admin through the verification queue', async () => {
    const other = await seedUser(identity.app.db, { roles: ['admin'] });
    const refused = await call(
      VERIFY,
      { input: { userId: other.id, decision: 'ban', banType: 'soft' } },
      moderator,
    );
    expect(refused.data?.moderatorVerifyUser.status.identifier).toBe('access_denied');
    expect(await identity.app.db.user.findUnique({ where: { id: other.id } })).toMatchObject({
      banType: null,
    });
    const wrong = await call(VERIFY, { input: { userId: other.id, decision: 'maybe' } }, admin);
    expect(wrong.data?.moderatorVerifyUser.status.identifier).toBe('invalid_input');
  });
});

describe('the conflict rule for staff (docs/adr/0070)', () => {
  const UNBAN = `mutation ($input: UnbanUserInput!) { unbanUser(input: $input) { ${STATUS} } }`;
  const FOLLOW = `mutation ($input: FollowInput!) { followUser(input: $input) { ${STATUS} } }`;
  const UNFOLLOW = `mutation ($input: FollowInput!) { unfollowUser(input: $input) { ${STATUS} } }`;
  const statusOf = (response: { data?: Record<string, { status: unknown }> | null }) =>
    Object.values(response.data ?? {})[0]?.status;

  it('refuses a moderator or admin who would ban, unban or verify themselves', async () => {
    for (const roles of [['user', 'moderator'], ['admin']] as Role[][]) {
      const seeded = await seedUser(identity.app.db, { roles });
      const self = { id: seeded.id, roles };
      for (const [query, input] of [
        [VERIFY, { userId: self.id }],
        [VERIFY, { userId: self.id, decision: 'ban', banType: 'soft' }],
        [BAN, { userId: self.id, type: 'soft', reason: 'Me.' }],
        [UNBAN, { userId: self.id, reason: 'Appeal accepted.' }],
      ] as const) {
        expect(statusOf(await call(query, { input }, self)), `${roles} ${query}`).toEqual({
          success: false,
          identifier: 'access_denied',
          message: 'You cannot act on your own account.',
        });
      }
      expect(await identity.app.db.user.findUnique({ where: { id: self.id } })).toMatchObject({
        banType: null,
        verifiedAt: null,
      });
    }
  });

  it('refuses staff who follow the user, until they unfollow', async () => {
    const seeded = await seedUser(identity.app.db, { roles: ['user', 'moderator'] });
    const fan = { id: seeded.id, roles: ['user', 'moderator'] as Role[] };
    const target = await seedUser(identity.app.db);
    const followed = await call(FOLLOW, { input: { username: target.username } }, fan);
    expect(followed.data?.followUser.status.identifier).toBe('ok');
    for (const [query, input] of [
      [BAN, { userId: target.id, type: 'hard', reason: 'Spam.' }],
      [UNBAN, { userId: target.id, reason: 'Appeal accepted.' }],
      [VERIFY, { userId: target.id }],
      [VERIFY, { userId: target.id, decision: 'ban', banType: 'soft' }],
    ] as const) {
      expect(statusOf(await call(query, { input }, fan)), query).toEqual({
        success: false,
        identifier: 'access_denied',
        message: 'You cannot act on the account of someone you follow.',
      });
    }
    expect(await identity.app.db.user.findUnique({ where: { id: target.id } })).toMatchObject({
      banType: null,
      verifiedAt: null,
    });
    const unfollowed = await call(UNFOLLOW, { input: { username: target.username } }, fan);
    expect(unfollowed.data?.unfollowUser.status.identifier).toBe('ok');
    expect(statusOf(await call(VERIFY, { input: { userId: target.id } }, fan))).toMatchObject({
      identifier: 'ok',
    });
  });
});
