import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteTopics,
  fromGateway,
  waitForCaughtUp,
  startTestService,
  uniqueTopicPrefix,
  type TestService,
  graphql,
  readiness,
} from '@challenge/testing';
import { newEvent, TOPICS } from '@challenge/events';
import type { NotificationApp } from '../src/app.ts';
import { signOptOutToken, signPreferencesToken } from '../src/domain/links.ts';
import { ACTIVITY_GROUP } from '../src/events/consumers.ts';
import { TEST_LINKS, notificationBuilder, publish } from './support.ts';

const topicPrefix = uniqueTopicPrefix();
let service: TestService<NotificationApp>;

beforeAll(async () => {
  service = await startTestService('notification', notificationBuilder(), { topicPrefix });
});

afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

const FIELDS =
  'status { success identifier message } emailPreferences { newChallenge updateChallenge completedChallenge marketing }';
const GET = `query { getEmailPreferences { ${FIELDS} } }`;
const GET_BY_TOKEN = `query ($token: String) { getEmailPreferences(input: { token: $token }) { ${FIELDS} } }`;
const UPDATE = `mutation ($input: UpdateEmailPreferencesInput!) { updateEmailPreferences(input: $input) { ${FIELDS} } }`;

const read = async (userId: string) =>
  (await graphql(service.url, GET, {}, { id: userId })).data?.getEmailPreferences;
const update = async (userId: string | null, input: Record<string, unknown>) =>
  (await graphql(service.url, UPDATE, { input }, userId ? { id: userId } : undefined)).data
    ?.updateEmailPreferences;

const unset = {
  newChallenge: null,
  updateChallenge: null,
  completedChallenge: null,
  marketing: null,
};

describe('e-mail preferences', () => {
  it('are all null for a user who has never chosen', async () => {
    expect(await read(randomUUID())).toEqual({
      status: { success: true, identifier: 'ok', message: expect.any(String) },
      emailPreferences: unset,
    });
  });

  it('keep the choices a user makes, and only those', async () => {
    const user = randomUUID();
    const updated = await update(user, { newChallenge: false, marketing: true });
    expect(updated).toEqual({
      status: expect.objectContaining({ success: true, identifier: 'ok' }),
      emailPreferences: { ...unset, newChallenge: false, marketing: true },
    });
    expect((await read(user)).emailPreferences).toEqual({
      ...unset,
      newChallenge: false,
      marketing: true,
    });

    // A later update changes what it names; omitted and null fields keep their value.
    await update(user, { marketing: false, completedChallenge: true, newChallenge: null });
    expect((await read(user)).emailPreferences).toEqual({
      newChallenge: false,
      updateChallenge: null,
      completedChallenge: true,
      marketing: false,
    });
  });

  it("never touch another user's choices", async () => {
    const [alice, bob] = [randomUUID(), randomUUID()];
    await update(alice, { updateChallenge: true });
    await update(bob, { updateChallenge: false });
    expect((await read(alice)).emailPreferences.updateChallenge).toBe(true);
    expect((await read(bob)).emailPreferences.updateChallenge).toBe(false);
  });

  it('answer unauthorized without a token, and change nothing', async () => {
    const rowsBefore = await service.app.db.emailPreferences.count();
    const anonymousRead = await graphql(service.url, GET);
    expect(anonymousRead.data?.getEmailPreferences).toEqual({
      status: { success: false, identifier: 'unauthorized', message: expect.any(String) },
      emailPreferences: null,
    });
    const anonymousUpdate = await update(null, { marketing: true });
    expect(anonymousUpdate).toEqual({
      status: expect.objectContaining({ success: false, identifier: 'unauthorized' }),
      emailPreferences: null,
    });
    expect(await service.app.db.emailPreferences.count()).toBe(rowsBefore);
  });

  it('refuse a forged token with 401', async () => {
    const response = await fetch(service.url, {
      method: 'POST',
      headers: {
        ...fromGateway(),
        'content-type': 'application/json',
        authorization: 'Bearer not.a.token',
      },
      body: JSON.stringify({ query: GET }),
    });
    expect(response.status).toBe(401);
  });
});

describe('e-mail preferences from the link in an e-mail, without logging in', () => {
  const tokenFor = (userId: string, signedAt?: Date) =>
    signPreferencesToken(TEST_LINKS.secret, userId, signedAt);
  const readByToken = async (token: string) =>
    (await graphql(service.url, GET_BY_TOKEN, { token })).data?.getEmailPreferences;
  const updateByToken = async (token: string, input: Record<string, unknown>) =>
    (await graphql(service.url, UPDATE, { input: { ...input, token } })).data
      ?.updateEmailPreferences;

  it('read and change the preferences of the user the link was made for', async () => {
    const user = randomUUID();
    await update(user, { marketing: true });
    const token = tokenFor(user);
    expect(await readByToken(token)).toEqual({
      status: expect.objectContaining({ success: true, identifier: 'ok' }),
      emailPreferences: { ...unset, marketing: true },
    });
    expect(await updateByToken(token, { updateChallenge: false, marketing: false })).toEqual({
      status: expect.objectContaining({ success: true }),
      emailPreferences: { ...unset, updateChallenge: false, marketing: false },
    });
    // The same choices, seen by the user when logged in.
    expect((await read(user)).emailPreferences).toEqual({
      ...unset,
      updateChallenge: false,
      marketing: false,
    });
  });

  it('follow the token, not whoever happens to be logged in', async () => {
    const [owner, other] = [randomUUID(), randomUUID()];
    const response = await graphql(
      service.url,
      UPDATE,
      { input: { token: tokenFor(owner), newChallenge: false } },
      { id: other },
    );
    expect(response.data?.updateEmailPreferences.emailPreferences.newChallenge).toBe(false);
    expect((await read(owner)).emailPreferences.newChallenge).toBe(false);
    expect((await read(other)).emailPreferences.newChallenge).toBeNull();
  });

  it('refuse a forged or changed token as unauthorized and an old one as expired, changing nothing', async () => {
    const user = randomUUID();
    const good = tokenFor(user);
    const forged = signPreferencesToken('someone-elses-secret-of-32-characters!!', user);
    const changed = `${good.slice(0, -3)}abc`;
    for (const token of [forged, changed, 'nonsense']) {
      expect(await readByToken(token)).toEqual({
        status: { success: false, identifier: 'unauthorized', message: expect.any(String) },
        emailPreferences: null,
      });
      expect((await updateByToken(token, { marketing: true })).status.identifier).toBe(
        'unauthorized',
      );
    }
    const old = tokenFor(user, new Date(Date.now() - 91 * 24 * 3600_000));
    expect(await readByToken(old)).toEqual({
      status: {
        success: false,
        identifier: 'expired_credentials',
        message: expect.stringContaining('expired'),
      },
      emailPreferences: null,
    });
    expect((await updateByToken(old, { marketing: true })).status.identifier).toBe(
      'expired_credentials',
    );
    expect(await service.app.db.emailPreferences.count({ where: { userId: user } })).toBe(0);
  });

  it('stop working once the account is deleted', async () => {
    const user = randomUUID();
    const token = tokenFor(user);
    await publish(
      topicPrefix,
      newEvent('UserDeleted', { aggregateId: user, actorId: null, data: { userId: user } }),
    );
    await waitForCaughtUp(topicPrefix, ACTIVITY_GROUP, TOPICS.identity);
    expect((await readByToken(token)).status.identifier).toBe('unauthorized');
    expect((await updateByToken(token, { marketing: true })).status.identifier).toBe(
      'unauthorized',
    );
  });
});

describe('operations', () => {
  it('is ready when its database, Redis and Kafka answer', async () => {
    const { httpStatus, body } = await readiness(service.url);
    expect(httpStatus).toBe(200);
    expect(body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok', kafka: 'ok' } });
  });
});

describe('the opt-out of invitations (shareChallengeLink), by the link in one', () => {
  const OPT_OUT = `query ($token: String!) { getInvitationOptOut(input: { token: $token }) { status { success identifier message } invitationOptOut { email optedOut } } }`;
  const SET = `mutation ($token: String!, $optedOut: Boolean!) { updateInvitationOptOut(input: { token: $token, optedOut: $optedOut }) { status { success identifier message } invitationOptOut { email optedOut } } }`;

  it('stops and resumes invitations to the address of the link, with no log-in', async () => {
    const email = `invited-${randomUUID().slice(0, 8)}@example.test`;
    const token = signOptOutToken(TEST_LINKS.secret, email);
    const ok = { success: true, identifier: 'ok', message: 'OK' };
    expect((await graphql(service.url, OPT_OUT, { token })).data?.getInvitationOptOut).toEqual({
      status: ok,
      invitationOptOut: { email, optedOut: false },
    });
    for (const optedOut of [true, true, false, true]) {
      const set = await graphql(service.url, SET, { token, optedOut });
      expect(set.data?.updateInvitationOptOut).toEqual({
        status: ok,
        invitationOptOut: { email, optedOut },
      });
    }
    expect(await service.app.db.invitationOptOut.count({ where: { email } })).toBe(1);
  });

  it('refuses a forged, changed or preferences token as unauthorized, changing nothing', async () => {
    const email = `invited-${randomUUID().slice(0, 8)}@example.test`;
    const token = signOptOutToken(TEST_LINKS.secret, email);
    const [, signature] = token.split('.');
    const forged = [
      signOptOutToken('another-secret-of-at-least-thirty-two-chars', email),
      `${Buffer.from('someone@example.test').toString('base64url')}.${signature}`,
      signPreferencesToken(TEST_LINKS.secret, randomUUID()),
      'nonsense',
    ];
    for (const bad of forged) {
      const set = await graphql(service.url, SET, { token: bad, optedOut: true });
      expect(set.data?.updateInvitationOptOut, bad).toEqual({
        status: { success: false, identifier: 'unauthorized', message: 'This link is not valid.' },
        invitationOptOut: null,
      });
    }
    expect(
      await service.app.db.invitationOptOut.count({
        where: { email: { in: [email, 'someone@example.test'] } },
      }),
    ).toBe(0);
  });
});
