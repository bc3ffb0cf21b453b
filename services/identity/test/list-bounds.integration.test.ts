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

/**
 * Identity's lists that a visitor reaches (discoverUsers, getFollowers, getFollowing) have bounded
 * pages (docs/adr/0074): 100 items a page at most, 10,000 items deep, totals counted up to 10,000.
 * A database of this file's own holds more than that, made with bulk SQL.
 */
const STATUS = 'status { success identifier message }';
const PAGINATION = 'pagination { currentPage totalPages totalCount }';
const DISCOVER = `query($input: DiscoverUsersInput) { discoverUsers(input: $input) { ${STATUS} ${PAGINATION} } }`;
const FOLLOWERS = `query($username: String!, $page: Int, $itemsPerPage: Int) {
  getFollowers(username: $username, page: $page, itemsPerPage: $itemsPerPage) { ${STATUS} items { id } ${PAGINATION} }
}`;
const MANY = 10_050;

describe('identity: bounded lists', () => {
  const topicPrefix = uniqueTopicPrefix();
  let identity: TestService<IdentityApp>;
  let star: { id: string; username: string };

  beforeAll(async () => {
    identity = await startTestService(
      'identity',
      async (runtime, url) => buildApp(runtime, await testIdentityConfig(url)),
      { topicPrefix },
    );
    const db = identity.app.db;
    star = await seedUser(db);
    await db.$executeRaw`
      INSERT INTO users (id, email, username, username_key, updated_at)
      SELECT gen_random_uuid(), 'bulk' || n || '@example.test', 'bulk' || n, 'bulk' || n, now()
        FROM generate_series(1, ${MANY}) AS n`;
    await db.$executeRaw`
      INSERT INTO follows (follower_id, followee_id)
      SELECT id, ${star.id}::uuid FROM users WHERE username LIKE 'bulk%'`;
    await db.$executeRaw`ANALYZE users`;
    await db.$executeRaw`ANALYZE follows`;
  }, 120_000);
  afterAll(async () => {
    await identity?.stop();
    await deleteTopics(topicPrefix);
  });

  it('discoverUsers counts up to 10,000', async () => {
    const { data } = await graphql(identity.url, DISCOVER, { input: { itemsPerPage: 100 } });
    expect(data?.discoverUsers).toEqual({
      status: { success: true, identifier: 'ok', message: 'OK' },
      pagination: { currentPage: 1, totalPages: 100, totalCount: 10_000 },
    });
  });

  it('getFollowers counts up to 10,000 and goes 10,000 items deep, for a visitor and a user', async () => {
    for (const viewer of [undefined, { id: star.id }]) {
      const first = await graphql(identity.url, FOLLOWERS, { username: star.username }, viewer);
      expect(first.data?.getFollowers).toMatchObject({
        status: { success: true },
        pagination: { currentPage: 1, totalPages: 500, totalCount: 10_000 },
      });
      const last = await graphql(
        identity.url,
        FOLLOWERS,
        { username: star.username, page: 500 },
        viewer,
      );
      expect(last.data?.getFollowers.items).toHaveLength(20);
      for (const page of [
        { page: 501 },
        { page: 2_147_483_647, itemsPerPage: 100 },
        { page: 1, itemsPerPage: 101 },
      ]) {
        const refused = await graphql(
          identity.url,
          FOLLOWERS,
          { username: star.username, ...page },
          viewer,
        );
        expect(refused.data?.getFollowers, JSON.stringify(page)).toMatchObject({
          status: { success: false, identifier: 'invalid_input' },
          items: [],
          pagination: null,
        });
      }
    }
  });
});
