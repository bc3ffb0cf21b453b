import { newEvent } from '@challenge/events';
import { graphql, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKnownUser, projectRegistrationOnce } from '../src/data/users.ts';
import {
  publishIdentity,
  registerUser,
  startPlatform,
  topUp,
  settledWalletOf,
  walletOf,
  type Platform,
  type TestUser,
} from './support/platform.ts';
import { eventually } from '@challenge/testing';

const CREATE = /* GraphQL */ `
  mutation ($input: CreateChallengeInput!) {
    createChallenge(input: $input) {
      status {
        success
        identifier
        message
      }
      challenges {
        slug
        challengeName
      }
    }
  }
`;

const BY_SLUG = /* GraphQL */ `
  query ($slug: String!) {
    getChallengeBySlug(input: { slug: $slug }) {
      status {
        identifier
      }
      challenge {
        id
        status
        challengeReward
        challengeType
        tags {
          name
        }
        visibility
        expirationTimeWeeks
        challengedEmail
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

let platform: Platform;
let owner: TestUser;
let friend: TestUser;
const BALANCE = 5_000;

beforeAll(async () => {
  platform = await startPlatform(uniqueTopicPrefix(), {
    rewardMinCents: 100,
    rewardMaxCents: 100_000,
  });
  [owner, friend] = await Promise.all([registerUser(platform), registerUser(platform)]);
  await topUp(platform, owner, BALANCE);
});

afterAll(() => platform?.stop());

const base = {
  challengeName: 'Run 5 km',
  challengeDescription: 'Run 5 km in under 25 minutes.',
  challengeReward: 500,
  tags: ['running'],
  acceptCredit: true,
};

async function create(caller: { id: string } | undefined, input: Record<string, unknown>) {
  const { data, errors } = await graphql(platform.challenge.url, CREATE, { input }, caller);
  expect(errors).toBeUndefined();
  return data!.createChallenge;
}

const challengesOf = (ownerId: string) =>
  platform.challenge.app.db.challenge.findMany({ where: { ownerId } });

/**
 * Issue 22 (spec audit): the web's reward minimum is the server's configured one, read from
 * `challengeRules` (visitors included: the create flow starts before log-in).
 */
describe('challengeRules', () => {
  it('answers the configured reward bounds to anyone', async () => {
    const RULES = `{ challengeRules { status { success } rewardMinCents rewardMaxCents } }`;
    for (const caller of [undefined, owner]) {
      const { data, errors } = await graphql(platform.challenge.url, RULES, {}, caller);
      expect(errors).toBeUndefined();
      expect(data!.challengeRules).toEqual({
        status: { success: true },
        rewardMinCents: 100,
        rewardMaxCents: 100_000,
      });
    }
  });
});

describe('createChallenge', () => {
  it('challenges a friend by username: the reward is held and the challenge is open', async () => {
    const before = await settledWalletOf(platform, owner);
    const result = await create(owner, {
      ...base,
      challengedUsername: friend.username.toUpperCase(),
      tags: ['#Running', 'fun'],
      visibility: 'private',
    });
    expect(result.status).toMatchObject({ success: true, identifier: 'ok' });
    expect(result.challenges).toEqual([{ slug: expect.any(String), challengeName: 'Run 5 km' }]);
    const { data } = await graphql(
      platform.challenge.url,
      BY_SLUG,
      { slug: result.challenges[0].slug },
      owner,
    );
    expect(data?.getChallengeBySlug.challenge).toMatchObject({
      status: 'open',
      challengeReward: 500,
      challengeType: 'solo',
      tags: [{ name: 'running' }, { name: 'fun' }],
      visibility: 'private',
      expirationTimeWeeks: 2,
      owner: { id: owner.id },
      challengedUser: { id: friend.id },
    });
    expect(await walletOf(platform, owner)).toEqual({
      availableAmount: before.availableAmount - 500,
      freezeAmount: before.freezeAmount + 500,
    });
    const events = await platform.challenge.app.db.outboxEvent.findMany({
      where: { key: data?.getChallengeBySlug.challenge.id },
    });
    expect(events.map((event) => event.type)).toEqual(['ChallengeCreated']);
  });

  it('challenges e-mail addresses with one challenge and one hold each', async () => {
    const before = await settledWalletOf(platform, owner);
    const result = await create(owner, {
      ...base,
      challengeReward: 200,
      challengedUserEmailsString: `New.Person@Example.com, ${friend.email.toUpperCase()}`,
    });
    expect(result.status.identifier).toBe('ok');
    expect(result.challenges).toHaveLength(2);
    const rows = await platform.challenge.app.db.challenge.findMany({
      where: { slug: { in: result.challenges.map((c: { slug: string }) => c.slug) } },
      orderBy: { challengedEmail: 'asc' },
    });
    // The registered address is the friend's account at once; the other waits for a sign-up.
    expect(
      rows.map((row) => [row.status, row.challengedEmail, row.challengedUserId]).sort(),
    ).toEqual(
      [
        ['open', friend.email.toLowerCase(), friend.id],
        ['open', 'new.person@example.com', null],
      ].sort(),
    );
    expect(await walletOf(platform, owner)).toEqual({
      availableAmount: before.availableAmount - 400,
      freezeAmount: before.freezeAmount + 400,
    });
  });

  it('answers each refusal of the catalogue for its bad input, and creates nothing', async () => {
    const [shy, pricey] = await Promise.all([
      registerUser(platform, { challengeable: false }),
      registerUser(platform, { minimumChallengeCents: 1_000 }),
    ]);
    const before = await settledWalletOf(platform, owner);
    const rowsBefore = (await challengesOf(owner.id)).length;
    const inPast = new Date(Date.now() - 86_400_000).toISOString();
    const cases: [string, Record<string, unknown>][] = [
      ['owner_equals_challenged_user', { challengedUsername: owner.username }],
      ['user_not_challengeable', { challengedUsername: shy.username }],
      ['user_not_challengeable', { challengedUserEmailsString: shy.email }],
      ['minimal_challenge_value_invalid', { challengedUsername: pricey.username }],
      ['user_not_found', { challengedUsername: 'nobody_by_that_name' }],
      ['invalid_challenged_email', { challengedUserEmailsString: 'not-an-address' }],
      ['invalid_challenged_email', { challengedUserEmailsString: ' , ' }],
      [
        'duplicate_challenged_email',
        { challengedUserEmailsString: 'a@example.com, A@EXAMPLE.com' },
      ],
      ['same_email', { challengedUserEmailsString: `a@example.com, ${owner.email}` }],
      ['challenge_reward_too_low', { challengedUsername: friend.username, challengeReward: 99 }],
      [
        'challenge_reward_too_high',
        { challengedUsername: friend.username, challengeReward: 100_001 },
      ],
      ['invalid_expiration_date', { challengedUsername: friend.username, expirationDate: inPast }],
      ['invalid_expiration_time', { challengedUsername: friend.username, expirationTimeWeeks: 10 }],
      [
        'error_creating_challenge_object',
        { challengedUsername: friend.username, expirationTimeWeeks: 0 },
      ],
      ['invalid_visibility_input', { challengedUsername: friend.username, visibility: 'secret' }],
      ['invalid_input', { challengedUsername: friend.username, tags: [] }],
      ['invalid_input', { challengedUsername: friend.username, acceptCredit: false }],
      ['invalid_input', { challengedUsername: friend.username, challengeType: 'tag-team' }],
    ];
    for (const [identifier, input] of cases) {
      const result = await create(owner, { ...base, ...input });
      expect(result.status, `${identifier} ${JSON.stringify(input)}`).toMatchObject({
        success: false,
        identifier,
      });
      expect(result.challenges).toBeNull();
    }
    expect(await walletOf(platform, owner)).toEqual(before);
    expect(await challengesOf(owner.id)).toHaveLength(rowsBefore);
  });

  it('answers insufficient_funds when the hold is refused, and creates nothing', async () => {
    const before = await settledWalletOf(platform, owner);
    const rowsBefore = (await challengesOf(owner.id)).length;
    const result = await create(owner, {
      ...base,
      challengedUsername: friend.username,
      challengeReward: before.availableAmount + 1,
    });
    expect(result.status).toMatchObject({ success: false, identifier: 'insufficient_funds' });
    expect(await walletOf(platform, owner)).toEqual(before);
    expect(await challengesOf(owner.id)).toHaveLength(rowsBefore);
  });

  it('releases the holds already taken when a later one is refused: all or nothing', async () => {
    const before = await settledWalletOf(platform, owner);
    const rowsBefore = (await challengesOf(owner.id)).length;
    // The first address's hold succeeds, the second's cannot.
    const reward = Math.floor(before.availableAmount / 2) + 1;
    const result = await create(owner, {
      ...base,
      challengeReward: reward,
      challengedUserEmailsString: 'first@example.com, second@example.com',
    });
    expect(result.status.identifier).toBe('insufficient_funds');
    expect(await walletOf(platform, owner)).toEqual(before);
    expect(await challengesOf(owner.id)).toHaveLength(rowsBefore);
  });

  it('refuses a user under 18, or whose age identity has not told, with unavailable_too_young', async () => {
    const [minor, unknownAge] = await Promise.all([
      registerUser(platform, { birthday: `${new Date().getUTCFullYear() - 17}-01-01` }),
      registerUser(platform, { birthday: null }),
    ]);
    for (const who of [minor, unknownAge]) {
      const result = await create(who, { ...base, challengedUsername: friend.username });
      expect(result.status.identifier).toBe('unavailable_too_young');
    }
  });

  it('refuses a banned user with banned_user and a visitor with unauthorized', async () => {
    const banned = await registerUser(platform);
    await publishIdentity(platform.topicPrefix, [
      newEvent('UserBanned', {
        aggregateId: banned.id,
        actorId: null,
        data: { userId: banned.id, type: 'soft', reason: null },
      }),
    ]);
    await eventually(async () =>
      expect((await findKnownUser(platform.challenge.app.db, banned.id))?.banned).toBe(true),
    );
    const result = await create(banned, { ...base, challengedUsername: friend.username });
    expect(result.status.identifier).toBe('banned_user');
    const visitor = await create(undefined, { ...base, challengedUsername: friend.username });
    expect(visitor.status.identifier).toBe('unauthorized');
  });
});

describe('e-mail invitations', () => {
  it('become the account of whoever signs up with the invited address', async () => {
    const result = await create(owner, {
      ...base,
      challengeReward: 100,
      challengedUserEmailsString: 'Invitee.Later@Example.com',
    });
    expect(result.status.identifier).toBe('ok');
    const invitee = await registerUser(platform, { email: 'invitee.later@example.com' });
    const row = await platform.challenge.app.db.challenge.findUnique({
      where: { slug: result.challenges[0].slug },
    });
    expect(row).toMatchObject({
      challengedUserId: invitee.id,
      challengedEmail: 'invitee.later@example.com',
    });
  });

  it('are claimed once per registration event, in the statement that marks it handled (docs/adr/0104)', async () => {
    const db = platform.challenge.app.db;
    const email = `twice-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const result = await create(owner, {
      ...base,
      challengeReward: 100,
      challengedUserEmailsString: email,
    });
    const slug = result.challenges[0].slug;
    const id = crypto.randomUUID();
    const user = { id, username: `twice_${id.slice(0, 6)}`, email, birthday: null };
    const mark = { consumer: 'test', eventId: crypto.randomUUID() };
    expect(await projectRegistrationOnce(db, mark, user)).toBe(true);
    expect((await db.challenge.findUnique({ where: { slug } }))?.challengedUserId).toBe(id);

    // The same event again (a redelivery) changes nothing: the claim is not made twice, the
    // account is not renamed.
    await db.challenge.update({ where: { slug }, data: { challengedUserId: null } });
    expect(await projectRegistrationOnce(db, mark, { ...user, username: 'renamed' })).toBe(false);
    expect((await db.challenge.findUnique({ where: { slug } }))?.challengedUserId).toBeNull();
    expect((await findKnownUser(db, id))?.username).toBe(user.username);

    // A deleted account is never brought back by a later registration event.
    await db.knownUser.update({ where: { id }, data: { deletedAt: new Date() } });
    const again = { consumer: 'test', eventId: crypto.randomUUID() };
    expect(await projectRegistrationOnce(db, again, { ...user, username: 'revived' })).toBe(true);
    expect(await db.knownUser.findUnique({ where: { id } })).toMatchObject({
      username: user.username,
    });
  });
});
