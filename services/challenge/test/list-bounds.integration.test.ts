import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteTopics,
  graphql,
  startTestService,
  uniqueTopicPrefix,
  type Caller,
  type TestService,
} from '@challenge/testing';
import { buildApp, type ChallengeApp } from '../src/app.ts';
import { statusPagePlan } from '../src/data/social.ts';

/**
 * Every list of challenge has bounded pages (docs/adr/0074, as the discover lists since ADR 43):
 * at most 100 items a page, 10,000 items deep, totals counted up to 10,000, for a visitor as for
 * anyone. A database of this file's own holds more than that, made with bulk SQL.
 */
const topicPrefix = uniqueTopicPrefix();
let service: TestService<ChallengeApp>;

const MANY = 10_050;
const owner = randomUUID();
let commented: { id: string; slug: string };

beforeAll(async () => {
  service = await startTestService('challenge', buildApp, { topicPrefix });
  const db = service.app.db;
  await db.$executeRaw`
    INSERT INTO challenges (id, slug, owner_id, challenged_user_id, name, description,
                            reward_cents, status, visibility, expiration_date,
                            expiration_time_weeks, challenge_type, created_at, updated_at)
    SELECT gen_random_uuid(), 'bulk-' || n, ${owner}::uuid, gen_random_uuid(), 'Bulk ' || n,
           'Do it.', 500, 'completed', 'public', now() + interval '1 week', 1,
           (CASE WHEN n % 3 = 0 THEN 'duel' ELSE 'solo' END)::"ChallengeType",
           now() - n * interval '1 second', now()
      FROM generate_series(1, ${MANY}) AS n`;
  commented = (await db.challenge.findFirstOrThrow({
    where: { slug: 'bulk-1' },
    select: { id: true, slug: true },
  }))!;
  await db.$executeRaw`
    INSERT INTO challenge_comments (id, challenge_id, author_id, text, created_at)
    SELECT gen_random_uuid(), ${commented.id}::uuid, gen_random_uuid(), 'Nice ' || n,
           now() - n * interval '1 second'
      FROM generate_series(1, ${MANY}) AS n`;
  await db.$executeRaw`ANALYZE challenges`;
  await db.$executeRaw`ANALYZE challenge_comments`;
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

const STATUS = 'status { success identifier message }';
const BY_STATUS = `query ($input: GetChallengesByStatusInput!) {
  getChallengesByStatus(input: $input) {
    ${STATUS} totalChallengesCount challenges { slug } pagination { currentPage totalPages totalCount }
  }
}`;
const COMMENTS = `query ($input: GetChallengeCommentsInput!) {
  getChallengeComments(input: $input) {
    ${STATUS} comments { text } pagination { currentPage totalPages totalCount }
  }
}`;

const viewers: (Caller | undefined)[] = [undefined, { id: randomUUID() }];

describe('bounded lists', () => {
  it('getChallengesByStatus counts up to 10,000 and pages go 10,000 items deep', async () => {
    for (const viewer of viewers) {
      const first = await graphql(
        service.url,
        BY_STATUS,
        { input: { status: 'completed', itemsPerPage: 100 } },
        viewer,
      );
      expect(first.data?.getChallengesByStatus).toMatchObject({
        status: { success: true },
        totalChallengesCount: 10_000,
        pagination: { currentPage: 1, totalPages: 100, totalCount: 10_000 },
      });
      const last = await graphql(
        service.url,
        BY_STATUS,
        { input: { status: 'completed', page: 100, itemsPerPage: 100 } },
        viewer,
      );
      expect(last.data?.getChallengesByStatus.challenges).toHaveLength(100);
      for (const input of [
        { status: 'completed', page: 101, itemsPerPage: 100 },
        { status: 'completed', page: 2_147_483_647 },
        { status: 'completed', itemsPerPage: 101 },
        { status: 'completed', page: 0 },
      ]) {
        const refused = await graphql(service.url, BY_STATUS, { input }, viewer);
        expect(refused.data?.getChallengesByStatus, JSON.stringify(input)).toMatchObject({
          status: { success: false, identifier: 'invalid_input' },
          challenges: null,
        });
      }
    }
  });

  it('reads a status page of the public challenges from their partial index, for visitors and users', async () => {
    // completed is also a discover status (its partial indexes could serve it); cancelled is not.
    for (const status of ['completed', 'cancelled'] as const) {
      for (const viewerId of [null, randomUUID()]) {
        for (const challengeType of [undefined, 'duel'] as const) {
          const query = { status, skip: 9_900, take: 100, viewerId, challengeType };
          const plan = await statusPagePlan(service.app.db, query);
          const what = JSON.stringify(query);
          expect(plan, what).not.toContain('Seq Scan');
          if (challengeType) continue; // on this table's few duels the planner may sort them
          // The public rows in their order from a partial index (this one, or for a discover
          // status the discover list's), never all rows of the status sorted: for a visitor the
          // only sort is the final one of the page's rows (a viewer's adds the merge of at most
          // skip + take rows of each part).
          expect(plan, what).toMatch(
            /Index (Only )?Scan using challenges_(public_status|discover)_idx/,
          );
          expect(plan, what).not.toContain('Bitmap Heap Scan');
          if (!viewerId) expect(plan.match(/Sort Key/g), what).toHaveLength(1);
        }
      }
    }
  });

  it("a challenge's comments count up to 10,000 and go 10,000 deep", async () => {
    for (const viewer of viewers) {
      const first = await graphql(
        service.url,
        COMMENTS,
        { input: { slug: commented.slug } },
        viewer,
      );
      expect(first.data?.getChallengeComments).toMatchObject({
        status: { success: true },
        pagination: { currentPage: 1, totalPages: 500, totalCount: 10_000 },
      });
      for (const input of [
        { slug: commented.slug, page: 501 },
        { slug: commented.slug, page: 2_147_483_647, itemsPerPage: 100 },
        { slug: commented.slug, itemsPerPage: 1_000 },
      ]) {
        const refused = await graphql(service.url, COMMENTS, { input }, viewer);
        expect(refused.data?.getChallengeComments.status, JSON.stringify(input)).toMatchObject({
          success: false,
          identifier: 'invalid_input',
        });
      }
    }
  });

  it("a profile's counts count up to 10,000, like its lists go", async () => {
    const answer = await graphql(
      service.url,
      `
        query ($r: [_Any!]!) {
          _entities(representations: $r) {
            ... on PublicProfile {
              completedChallengesCount
            }
          }
        }
      `,
      { r: [{ __typename: 'PublicProfile', id: owner, showsPrivate: false }] },
    );
    expect(answer.data?._entities[0]).toEqual({ completedChallengesCount: 10_000 });
    const deep = await graphql(
      service.url,
      `
        query ($r: [_Any!]!) {
          _entities(representations: $r) {
            ... on PublicProfile {
              completedChallenges(page: 101, itemsPerPage: 100) {
                slug
              }
            }
          }
        }
      `,
      { r: [{ __typename: 'PublicProfile', id: owner, showsPrivate: false }] },
    );
    expect(deep.errors?.[0]).toMatchObject({
      message: 'Lists go 10000 items deep',
      extensions: { code: 'BAD_USER_INPUT', identifier: 'invalid_input' },
    });
  });
});
