import { TOPICS } from '@challenge/events';
import {
  deleteTopics,
  graphql,
  readTopic,
  startTestService,
  testIdentityConfig,
  tokenFor,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type IdentityApp } from '../src/app.ts';
import { sweepDueDeletions } from '../src/domain/lifecycle.ts';
import { seedUser } from '../src/seed.ts';

const STATUS = 'status { success identifier }';
const VERIFY = `mutation($input: ModeratorVerifyUserInput!) { moderatorVerifyUser(input: $input) { ${STATUS} } }`;
const DELETE = `mutation { deleteUser { ${STATUS} } }`;
const ME = `{ getCurrentUserProfile { ${STATUS} } }`;
const DAY = 24 * 60 * 60 * 1000;

describe('identity: verification and account deletion', () => {
  const topicPrefix = uniqueTopicPrefix();
  let identity: TestService<IdentityApp>;

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

  it('lets staff verify a user once and announces UserVerified', async () => {
    const user = await seedUser(identity.app.db);
    const moderator = await seedUser(identity.app.db, { roles: ['user', 'moderator'] });
    const asUser = await graphql(
      identity.url,
      VERIFY,
      { input: { userId: user.id } },
      { id: user.id },
    );
    expect(asUser.data!.moderatorVerifyUser.status.identifier).toBe('access_denied');

    const staff = { id: moderator.id, roles: ['user', 'moderator'] as const };
    const first = await graphql(
      identity.url,
      VERIFY,
      { input: { userId: user.id } },
      { ...staff, roles: [...staff.roles] },
    );
    expect(first.data!.moderatorVerifyUser.status.success).toBe(true);
    const again = await graphql(
      identity.url,
      VERIFY,
      { input: { userId: user.id } },
      { ...staff, roles: [...staff.roles] },
    );
    expect(again.data!.moderatorVerifyUser.status.identifier).toBe('redundant_mutation');

    const messages = await readTopic(topicPrefix, TOPICS.identity, (all) =>
      all.some((message) => message.value?.toString().includes('"UserVerified"')),
    );
    const verified = messages
      .map((message) => JSON.parse(message.value!.toString()))
      .find((event) => event.type === 'UserVerified');
    expect(verified).toMatchObject({
      aggregateId: user.id,
      actorId: moderator.id,
      data: { userId: user.id },
    });
  });

  it('erases an account a month after the request, not before, and refuses its tokens', async () => {
    const leaving = await seedUser(identity.app.db, { displayName: 'Leaving Soon' });
    const staying = await seedUser(identity.app.db);
    for (const user of [leaving, staying]) {
      expect(
        (await graphql(identity.url, DELETE, {}, { id: user.id })).data!.deleteUser.status.success,
      ).toBe(true);
    }
    await identity.app.db.user.update({
      where: { id: leaving.id },
      data: { deletionRequestedAt: new Date(Date.now() - 31 * DAY) },
    });
    await identity.app.db.user.update({
      where: { id: staying.id },
      data: { deletionRequestedAt: new Date(Date.now() - 29 * DAY) },
    });
    const oldToken = await tokenFor({ id: leaving.id });
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the token is of an earlier second

    expect(
      await sweepDueDeletions({ db: identity.app.db, tokenState: identity.app.tokenState }),
    ).toBe(1);
    const erased = await identity.app.db.user.findUniqueOrThrow({ where: { id: leaving.id } });
    expect(erased).toMatchObject({
      status: 'deleted',
      username: leaving.username,
      email: `deleted-${leaving.id}@deleted.invalid`,
      displayName: null,
      passwordHash: null,
    });
    expect(
      (await identity.app.db.user.findUniqueOrThrow({ where: { id: staying.id } })).status,
    ).toBe('deletion_requested');
    expect((await graphql(identity.url, ME, {}, { token: oldToken })).httpStatus).toBe(401);
    expect(
      await sweepDueDeletions({ db: identity.app.db, tokenState: identity.app.tokenState }),
    ).toBe(0);

    const messages = await readTopic(topicPrefix, TOPICS.identity, (all) =>
      all.some((message) => message.value?.toString().includes('"UserDeleted"')),
    );
    const deleted = messages
      .map((message) => JSON.parse(message.value!.toString()))
      .filter((event) => event.type === 'UserDeleted');
    expect(deleted.map((event) => event.data.userId)).toEqual([leaving.id]);
  });
});
