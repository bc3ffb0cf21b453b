import { randomUUID } from 'node:crypto';
import { TOPICS } from '@challenge/events';
import { AppError } from '@challenge/kit';
import {
  deleteTopics,
  graphql,
  readTopic,
  startTestService,
  testIdentityConfig,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type IdentityApp } from '../src/app.ts';
import { announceBirthday, registerUser } from '../src/domain/users.ts';
import { seedUser } from '../src/seed.ts';

const PROFILE =
  '{ getCurrentUserProfile { status { success identifier } profile { id username displayName locale roles showPrivateChallenges hideAvailableAmount } } }';

describe('identity accounts', () => {
  const topicPrefix = uniqueTopicPrefix();
  let identity: TestService<IdentityApp>;

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

  it('registers a user and announces UserRegistered through the outbox', async () => {
    const user = await registerUser(identity.app.db, {
      email: '  Mixed.Case@Example.TEST ',
      username: 'Nova_1',
      locale: 'nl',
      displayName: 'Nova',
    });
    expect(user).toMatchObject({
      email: 'mixed.case@example.test',
      username: 'Nova_1',
      roles: ['user'],
    });

    const messages = await readTopic(topicPrefix, TOPICS.identity, (all) =>
      all.some((message) => message.key?.toString() === user.id),
    );
    const event = JSON.parse(
      messages.find((message) => message.key?.toString() === user.id)!.value!.toString(),
    );
    expect(event).toMatchObject({
      type: 'UserRegistered',
      aggregateId: user.id,
      data: { userId: user.id, username: 'Nova_1', email: 'mixed.case@example.test', locale: 'nl' },
    });
  });

  /** The first event of `type` about `userId` on identity.v1, as challenge's projection reads it. */
  async function eventOf(
    type: string,
    userId: string,
    matches: (data: never) => boolean = () => true,
  ) {
    const parsed = (messages: { key: Buffer | null; value: Buffer | null }[]) =>
      messages
        .filter((message) => message.key?.toString() === userId)
        .map((message) => JSON.parse(message.value!.toString()))
        .filter((event) => event.type === type && matches(event.data as never));
    const messages = await readTopic(topicPrefix, TOPICS.identity, (all) => parsed(all).length > 0);
    return parsed(messages)[0];
  }

  it("announces the birthday with the registration (challenge's 18+ rule), null when unknown", async () => {
    const adult = await seedUser(
      identity.app.db,
      {},
      { birthday: new Date(Date.UTC(1990, 4, 17)) },
    );
    const unknown = await seedUser(identity.app.db);
    expect((await eventOf('UserRegistered', adult.id)).data).toMatchObject({
      userId: adult.id,
      birthday: '1990-05-17',
    });
    expect((await eventOf('UserRegistered', unknown.id)).data.birthday).toBeNull();
  });

  it('announces a birthday set after registration (UserBirthdaySet)', async () => {
    const user = await seedUser(identity.app.db);
    await announceBirthday(identity.app.db, user.id, new Date(Date.UTC(2001, 11, 31)));
    expect((await eventOf('UserBirthdaySet', user.id)).data).toEqual({
      userId: user.id,
      birthday: '2001-12-31',
    });
  });

  it('announces every change of the challenge settings (UserChallengeSettingsChanged)', async () => {
    const user = await seedUser(identity.app.db);
    const send = (query: string, input: Record<string, unknown>) =>
      graphql(identity.url, query, { input }, user);
    const off = await send(
      'mutation ($input: UpdateChallengeableProfileInput!) { updateChallengeableProfile(input: $input) { status { success } } }',
      { challengeable: false },
    );
    expect(off.data?.updateChallengeableProfile.status.success).toBe(true);
    expect((await eventOf('UserChallengeSettingsChanged', user.id)).data).toEqual({
      userId: user.id,
      challengeable: false,
      minimumChallengeCents: null,
    });
    const minimum = await send(
      'mutation ($input: UpdateMinimalChallengeInput!) { updateMinimalChallenge(input: $input) { status { success } } }',
      { minimumChallengeEnabled: true, minimumChallengeValue: 2_500 },
    );
    expect(minimum.data?.updateMinimalChallenge.status.success).toBe(true);
    const changed = await eventOf(
      'UserChallengeSettingsChanged',
      user.id,
      (data: { minimumChallengeCents: number | null }) => data.minimumChallengeCents !== null,
    );
    expect(changed.data).toEqual({
      userId: user.id,
      challengeable: false,
      minimumChallengeCents: 2_500,
    });
  });

  it('refuses a username that differs only in case, and a second account for one e-mail', async () => {
    const first = await seedUser(identity.app.db);
    await expect(
      seedUser(identity.app.db, { username: first.username.toUpperCase() }),
    ).rejects.toEqual(new AppError('no_unique_username'));
    await expect(seedUser(identity.app.db, { email: first.email })).rejects.toMatchObject({
      identifier: 'invalid_user_input',
    });
  });

  it('lets exactly one of concurrent sign-ups with one username (any case) or e-mail win', async () => {
    // No lookup before the insert: the unique keys decide (ON CONFLICT DO NOTHING), and the
    // loser waits for the winner's commit, then answers from the catalogue, never a 500.
    const name = `race_${Date.now().toString(36)}`;
    const byName = await Promise.allSettled(
      ['', '', ''].map((_, i) =>
        seedUser(identity.app.db, { username: i === 1 ? name.toUpperCase() : name }),
      ),
    );
    expect(byName.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const lost of byName.filter((r) => r.status === 'rejected'))
      expect(lost.reason).toEqual(new AppError('no_unique_username'));
    const address = `race-${Date.now().toString(36)}@example.test`;
    const byEmail = await Promise.allSettled(
      ['', '', ''].map(() => seedUser(identity.app.db, { email: address })),
    );
    expect(byEmail.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const lost of byEmail.filter((r) => r.status === 'rejected'))
      expect(lost.reason).toMatchObject({ identifier: 'invalid_user_input' });
    expect(await identity.app.db.user.count({ where: { email: address } })).toBe(1);
  });

  it('refuses invalid usernames and e-mails before touching the database', async () => {
    await expect(seedUser(identity.app.db, { username: 'ab' })).rejects.toThrow(/3 to 30/);
    await expect(seedUser(identity.app.db, { username: 'has space' })).rejects.toThrow(/3 to 30/);
    await expect(seedUser(identity.app.db, { email: 'not-an-email' })).rejects.toThrow();
  });

  it('returns the own profile with the spec defaults', async () => {
    const user = await seedUser(identity.app.db, { displayName: 'Dana' });
    const response = await graphql(identity.url, PROFILE, {}, { id: user.id });
    expect(response.data).toEqual({
      getCurrentUserProfile: {
        status: { success: true, identifier: 'ok' },
        profile: {
          id: user.id,
          username: user.username,
          displayName: 'Dana',
          locale: 'en',
          roles: ['user'],
          showPrivateChallenges: false,
          hideAvailableAmount: true,
        },
      },
    });
  });

  it('answers unauthorized without a token and authorized_user_not_found for an unknown account', async () => {
    const anonymous = await graphql(identity.url, PROFILE);
    expect(anonymous.data).toEqual({
      getCurrentUserProfile: {
        status: { success: false, identifier: 'unauthorized' },
        profile: null,
      },
    });
    const ghost = await graphql(identity.url, PROFILE, {}, { id: randomUUID() });
    expect(ghost.data).toMatchObject({
      getCurrentUserProfile: {
        status: { success: false, identifier: 'authorized_user_not_found' },
      },
    });
  });

  it('is ready when its database, Redis and Kafka answer', async () => {
    const response = await fetch(identity.url.replace(/\/graphql$/, '/readyz'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', redis: 'ok', kafka: 'ok' },
    });
  });
});
