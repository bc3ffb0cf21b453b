import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteTopics,
  startTestService,
  uniqueTopicPrefix,
  type TestService,
  graphql,
  readiness,
} from '@challenge/testing';
import type { NotificationApp } from '../src/app.ts';
import { notificationBuilder } from './support.ts';

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
      headers: { 'content-type': 'application/json', authorization: 'Bearer not.a.token' },
      body: JSON.stringify({ query: GET }),
    });
    expect(response.status).toBe(401);
  });
});

describe('operations', () => {
  it('is ready when its database, Redis and Kafka answer', async () => {
    const { httpStatus, body } = await readiness(service.url);
    expect(httpStatus).toBe(200);
    expect(body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok', kafka: 'ok' } });
  });
});
