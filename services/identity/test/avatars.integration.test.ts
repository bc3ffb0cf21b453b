import { randomUUID } from 'node:crypto';
import {
  TEST_INTERNAL_API_TOKEN,
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
 * Avatars in identity (docs/adr/0049): only media, through the internal API with the shared
 * token, sets a key, and only a key of the user's own; clients see a /_ipx URL; a JSON
 * updateProfile can remove the avatar but never point it anywhere.
 */

const STATUS = 'status { success identifier message }';
const UPDATE = `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { ${STATUS} displayName bio avatar } }`;
const SETTINGS = `{ getSettings { ${STATUS} settings { avatar } } }`;
const CURRENT = `{ getCurrentUserProfile { ${STATUS} profile { avatar } } }`;
const PROFILE = `query($username: String!) { getUserProfile(username: $username) { ${STATUS} profile { avatar } } }`;
const ENTITY = `query($r: [_Any!]!) { _entities(representations: $r) { ... on User { id avatar } } }`;

const keyOf = (userId: string) => `avatars/${userId}/${randomUUID()}.webp`;
const urlOf = (key: string) => `/_ipx/w_256&f_webp/${key}`;

describe('identity: avatars', () => {
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

  const internal = (
    userId: string,
    body: unknown,
    token: string | null = TEST_INTERNAL_API_TOKEN,
  ) =>
    fetch(new URL(`/internal/profiles/${userId}`, identity.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const storedAvatar = async (id: string) =>
    (await identity.app.db.user.findUniqueOrThrow({ where: { id }, select: { avatar: true } }))
      .avatar;

  it('refuses a JSON avatar that is not null: no URL, no key of anyone', async () => {
    const user = await seedUser(identity.app.db);
    const other = await seedUser(identity.app.db);
    for (const avatar of [
      'https://tracker.example/pixel.png',
      keyOf(other.id),
      keyOf(user.id),
      { url: 'x' },
    ]) {
      const answer = await graphql(
        identity.url,
        UPDATE,
        { input: { avatar, displayName: 'Changed' } },
        as(user),
      );
      expect(answer.data!.updateProfile.status).toMatchObject({
        success: false,
        identifier: 'invalid_file',
      });
    }
    const after = await identity.app.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.avatar).toBeNull();
    expect(after.displayName).not.toBe('Changed');
  });

  it('takes the internal update only with the shared token', async () => {
    const user = await seedUser(identity.app.db);
    const key = keyOf(user.id);
    expect((await internal(user.id, { avatarKey: key }, null)).status).toBe(401);
    expect((await internal(user.id, { avatarKey: key }, 'x'.repeat(44))).status).toBe(401);
    expect(await storedAvatar(user.id)).toBeNull();
  });

  it("refuses another user's key, a URL and a key of the wrong shape", async () => {
    const user = await seedUser(identity.app.db);
    const other = await seedUser(identity.app.db);
    for (const avatarKey of [
      keyOf(other.id),
      'https://tracker.example/pixel.png',
      `avatars/${user.id}/../${other.id}/${randomUUID()}.webp`,
      `avatars/${user.id}/${randomUUID()}.png`,
      `cache/ipx/avatars/${user.id}/${randomUUID()}.webp`,
    ]) {
      const response = await internal(user.id, { avatarKey });
      const body = (await response.json()) as { status: { identifier: string } };
      expect(body.status.identifier).toBe('invalid_file');
      expect(response.status).toBe(409);
    }
    expect(await storedAvatar(user.id)).toBeNull();
  });

  it('sets the key with the other fields, answers the replaced key, shows the URL everywhere', async () => {
    const user = await seedUser(identity.app.db);
    const viewer = await seedUser(identity.app.db);
    const first = keyOf(user.id);
    const set = await internal(user.id, { avatarKey: first, displayName: ' Pic ', bio: 'Hi' });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({
      status: { success: true, identifier: 'ok', message: 'OK' },
      profile: { displayName: 'Pic', bio: 'Hi', avatar: urlOf(first), previousAvatarKey: null },
    });
    const second = keyOf(user.id);
    const replaced = (await (await internal(user.id, { avatarKey: second })).json()) as {
      profile: { avatar: string; previousAvatarKey: string };
    };
    expect(replaced.profile).toMatchObject({ avatar: urlOf(second), previousAvatarKey: first });
    expect(await storedAvatar(user.id)).toBe(second);

    const url = urlOf(second);
    expect(
      (await graphql(identity.url, SETTINGS, {}, as(user))).data!.getSettings.settings,
    ).toEqual({ avatar: url });
    expect(
      (await graphql(identity.url, CURRENT, {}, as(user))).data!.getCurrentUserProfile.profile,
    ).toEqual({ avatar: url });
    expect(
      (await graphql(identity.url, PROFILE, { username: user.username }, as(viewer))).data!
        .getUserProfile.profile,
    ).toEqual({ avatar: url });
    expect(
      (
        await graphql(
          identity.url,
          ENTITY,
          { r: [{ __typename: 'User', id: user.id }] },
          as(viewer),
        )
      ).data!._entities,
    ).toEqual([{ id: user.id, avatar: url }]);

    // Projections learn the key with the profile change (challenge, notification).
    const events = await identity.app.db.outboxEvent.findMany({
      where: { type: 'UserProfileUpdated', key: user.id },
      orderBy: { seq: 'asc' },
    });
    expect(events.map((row) => (row.payload as { data: { avatar: string } }).data.avatar)).toEqual([
      first,
      second,
    ]);
  });

  it('a refused field changes nothing, the avatar neither', async () => {
    const user = await seedUser(identity.app.db);
    const response = await internal(user.id, {
      avatarKey: keyOf(user.id),
      displayName: 'x'.repeat(61),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { status: { identifier: string } }).status.identifier).toBe(
      'invalid_input',
    );
    expect(await storedAvatar(user.id)).toBeNull();
  });

  it('removes the avatar with a JSON null, and hides a stored value that is not a key', async () => {
    const user = await seedUser(identity.app.db);
    const key = keyOf(user.id);
    await internal(user.id, { avatarKey: key });
    const removed = await graphql(identity.url, UPDATE, { input: { avatar: null } }, as(user));
    expect(removed.data!.updateProfile).toMatchObject({
      status: { success: true },
      avatar: null,
    });
    expect(await storedAvatar(user.id)).toBeNull();
    // A value from before avatars were uploads (any string) is never handed to a browser.
    await identity.app.db.user.update({
      where: { id: user.id },
      data: { avatar: 'https://tracker.example/pixel.png' },
    });
    expect(
      (await graphql(identity.url, SETTINGS, {}, as(user))).data!.getSettings.settings,
    ).toEqual({ avatar: null });
  });
});
