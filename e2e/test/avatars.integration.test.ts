import { crc32 } from 'node:zlib';
import { TOPICS, newEvent } from '@challenge/events';
import { eventually, graphql, produceRaw, tokenFor } from '@challenge/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person, type Person } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';
import { MULTIPART_TYPE, ffmpegVideo, multipartFrame, streamUpload } from '../support/uploads.ts';

/**
 * Avatars end to end (issue 12, docs/adr/0049): a multipart updateProfile through the real
 * gateway to media, which sniffs and re-encodes the picture into MinIO and hands the update to
 * identity's internal API; the profile then shows a /_ipx URL that loads through the gateway.
 */

const STATUS = 'status { success identifier message }';
const UPDATE = `mutation UpdateProfile($input: UpdateProfileInput!) {
  updateProfile(input: $input) { ${STATUS} displayName bio avatar } }`;
const PROFILE = `query ($username: String!) { getUserProfile(username: $username) {
  ${STATUS} profile { displayName avatar } } }`;
const SIDEBAR = `{ getCurrentUserProfile { ${STATUS} profile { displayName avatar } } }`;

const MAX = 10 * 1000 * 1000;
const AVATAR_URL = /^\/_ipx\/w_256&f_webp\/(avatars\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.webp)$/;

/** The smallest GIF (1x1). */
const GIF = Buffer.from(
  '47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b',
  'hex',
);

/** A photo as a phone writes it: EXIF with the camera and the GPS position. */
const photoWithGps = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#c0392b' } })
    .jpeg()
    .withMetadata({
      exif: {
        IFD0: { Make: 'TestCam', Model: 'Spy 3000', Copyright: 'Someone' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 0/1', GPSLongitudeRef: 'E' },
      },
    })
    .toBuffer();

/** A valid PNG whose header claims `side` x `side` pixels: a decompression bomb's shape. */
async function pngClaiming(side: number): Promise<Buffer> {
  const png = await sharp({
    create: { width: 1, height: 1, channels: 3, background: '#000' },
  })
    .png()
    .toBuffer();
  const patched = Buffer.from(png);
  // The IHDR chunk: length (4) at 8, type at 12, width at 16, height at 20, CRC after 13 bytes.
  patched.writeUInt32BE(side, 16);
  patched.writeUInt32BE(side, 20);
  patched.writeUInt32BE(crc32(patched.subarray(12, 29)), 29);
  return patched;
}

describe('avatars through the gateway', { timeout: 120_000 }, () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startPlatform();
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
  });

  const url = () => platform.gateway.url;
  const origin = () => new URL(platform.gateway.url).origin;
  const storage = () => platform.media.app.storage;

  async function upload(
    as: Person | undefined,
    file: { bytes: Buffer; filename: string; contentType: string },
    fields: Record<string, unknown> = {},
  ) {
    const { head, tail } = multipartFrame(
      { query: UPDATE, variables: { input: { ...fields, avatar: null } } },
      file,
      'variables.input.avatar',
    );
    const auth: Record<string, string> = as
      ? { authorization: `Bearer ${await tokenFor(as)}` }
      : {};
    const response = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': MULTIPART_TYPE, ...auth },
      body: Buffer.concat([head, file.bytes, tail]),
    });
    const body = (await response.json()) as {
      data?: {
        updateProfile: { status: { identifier: string; message: string } } & Record<
          string,
          unknown
        >;
      };
      errors?: unknown[];
    };
    return { httpStatus: response.status, ...body };
  }

  const avatarsOf = (user: Person) => storage().listKeys(`avatars/${user.id}/`);
  async function stored(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage().getObject(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  it('stores a JPEG re-encoded without EXIF or GPS, applies the other fields, shows it everywhere', async () => {
    const user = await person(platform);
    const viewer = await person(platform);
    const photo = await photoWithGps(1600, 1200);
    // The input really carries what must go.
    const before = await sharp(photo).metadata();
    expect(before.exif?.toString('latin1')).toContain('TestCam');

    const answer = await upload(
      user,
      { bytes: photo, filename: 'IMG_0001.JPG', contentType: 'image/jpeg' },
      { displayName: 'Picture Person', bio: 'New face' },
    );
    expect(answer.httpStatus).toBe(200);
    const result = answer.data!.updateProfile;
    expect(result).toMatchObject({
      status: { success: true, identifier: 'ok' },
      displayName: 'Picture Person',
      bio: 'New face',
    });
    const key = AVATAR_URL.exec(String(result.avatar))?.[1];
    expect(key).toMatch(new RegExp(`^avatars/${user.id}/`));
    expect(await avatarsOf(user)).toEqual([key]);

    const meta = await sharp(await stored(key!)).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1024, height: 768 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(meta.icc).toBeUndefined();

    // The profile (another viewer), the sidebar's own profile: the same URL.
    const profile = await graphql(url(), PROFILE, { username: user.username }, viewer);
    expect(profile.data!.getUserProfile.profile).toEqual({
      displayName: 'Picture Person',
      avatar: result.avatar,
    });
    const own = await graphql(url(), SIDEBAR, {}, user);
    expect(own.data!.getCurrentUserProfile.profile.avatar).toBe(result.avatar);

    // It loads through the gateway's /_ipx, at density 1 and 2, for anyone (no session).
    for (const width of [256, 96, 192]) {
      const image = await fetch(
        `${origin()}${String(result.avatar).replace('w_256', `w_${width}`)}`,
      );
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/webp');
      const rendition = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect(rendition).toMatchObject({ format: 'webp', width });
      expect(rendition.exif).toBeUndefined();
    }
  });

  it('takes a PNG, replaces the previous avatar and deletes it with its renditions', async () => {
    const user = await person(platform);
    const first = await upload(user, {
      bytes: await sharp({ create: { width: 300, height: 200, channels: 4, background: '#0a0' } })
        .png()
        .toBuffer(),
      filename: 'me.png',
      contentType: 'image/png',
    });
    expect(first.data!.updateProfile.status.identifier).toBe('ok');
    const firstKey = AVATAR_URL.exec(String(first.data!.updateProfile.avatar))![1]!;
    expect((await sharp(await stored(firstKey)).metadata()).width).toBe(300); // never enlarged
    expect((await fetch(`${origin()}${first.data!.updateProfile.avatar}`)).status).toBe(200);
    expect(await storage().listKeys(`cache/ipx/${firstKey}/`)).toHaveLength(1);

    const second = await upload(user, {
      bytes: await photoWithGps(400, 400),
      filename: 'me.jpeg',
      contentType: 'image/jpeg',
    });
    const secondKey = AVATAR_URL.exec(String(second.data!.updateProfile.avatar))![1]!;
    expect(secondKey).not.toBe(firstKey);
    expect(await avatarsOf(user)).toEqual([secondKey]);
    expect(await storage().listKeys(`cache/ipx/${firstKey}/`)).toEqual([]);
    expect((await fetch(`${origin()}${first.data!.updateProfile.avatar}`)).status).toBe(404);
  });

  it('refuses a GIF, an MP4, text named .png, a broken JPEG and a decompression bomb: invalid_file, nothing stored', async () => {
    const user = await person(platform);
    const brokenJpeg = Buffer.concat([
      Buffer.from('ffd8ffe000104a464946', 'hex'),
      Buffer.alloc(500, 7),
    ]);
    const files = [
      { bytes: GIF, filename: 'me.gif', contentType: 'image/gif' },
      { bytes: await ffmpegVideo('mp4'), filename: 'me.png', contentType: 'image/png' },
      {
        bytes: Buffer.from('not a picture at all\n'),
        filename: 'me.png',
        contentType: 'image/png',
      },
      { bytes: brokenJpeg, filename: 'me.jpg', contentType: 'image/jpeg' },
      { bytes: await pngClaiming(30_000), filename: 'huge.png', contentType: 'image/png' },
    ];
    for (const file of files) {
      const answer = await upload(user, file, { displayName: 'Should Not Change' });
      expect(answer.data!.updateProfile.status).toMatchObject({ identifier: 'invalid_file' });
      expect(answer.data!.updateProfile.avatar).toBeNull();
    }
    const text = await upload(user, files[2]!);
    expect(text.data!.updateProfile.status.message).toBe(
      'Only jpg, jpeg and png files are allowed.',
    );
    expect(await avatarsOf(user)).toEqual([]);
    const own = await graphql(url(), SIDEBAR, {}, user);
    expect(own.data!.getCurrentUserProfile.profile).toMatchObject({ avatar: null });
    expect(own.data!.getCurrentUserProfile.profile.displayName).not.toBe('Should Not Change');
  });

  it('refuses a stream as it passes 10 MB with "File is too large" and stores nothing', async () => {
    const user = await person(platform);
    const jpegHead = (await photoWithGps(16, 16)).subarray(0, 64);
    const frame = multipartFrame(
      { query: UPDATE, variables: { input: { avatar: null } } },
      { filename: 'big.jpg', contentType: 'image/jpeg' },
      'variables.input.avatar',
    );
    // 50 MB offered: the answer comes as the 10 MB limit passes, and the sender stops there.
    const answer = await streamUpload(url(), user, frame, 5 * MAX, jpegHead);
    expect(answer.body).toMatchObject({ data: {} });
    expect(answer.body.data.updateProfile.status).toEqual({
      success: false,
      identifier: 'upload_error',
      message: 'File is too large',
    });
    expect(answer.sentBytes).toBeLessThan(5 * MAX);
    expect(await avatarsOf(user)).toEqual([]);
  });

  it('refuses a visitor, and a JSON avatar that names a key or a URL', async () => {
    const owner = await person(platform);
    const thief = await person(platform);
    const visitor = await upload(undefined, {
      bytes: await photoWithGps(64, 64),
      filename: 'a.jpg',
      contentType: 'image/jpeg',
    });
    expect(visitor.data!.updateProfile.status.identifier).toBe('unauthorized');

    const mine = await upload(owner, {
      bytes: await photoWithGps(64, 64),
      filename: 'a.jpg',
      contentType: 'image/jpeg',
    });
    const ownerKey = AVATAR_URL.exec(String(mine.data!.updateProfile.avatar))![1]!;
    for (const avatar of [
      ownerKey,
      mine.data!.updateProfile.avatar,
      'https://evil.example/x.png',
    ]) {
      const json = await graphql(url(), UPDATE, { input: { avatar } }, thief);
      expect(json.data!.updateProfile.status.identifier).toBe('invalid_file');
    }
    const seen = await graphql(url(), SIDEBAR, {}, thief);
    expect(seen.data!.getCurrentUserProfile.profile.avatar).toBeNull();

    // The owner removes theirs with a JSON null.
    const removed = await graphql(url(), UPDATE, { input: { avatar: null } }, owner);
    expect(removed.data!.updateProfile).toMatchObject({ status: { success: true }, avatar: null });
  });

  it('deletes a removed picture, and every picture of a deleted account, from the store', async () => {
    const user = await person(platform);
    const jpeg = {
      bytes: await photoWithGps(64, 64),
      filename: 'a.jpg',
      contentType: 'image/jpeg',
    };
    const first = await upload(user, jpeg);
    const key = AVATAR_URL.exec(String(first.data!.updateProfile.avatar))![1]!;
    await fetch(`${origin()}${first.data!.updateProfile.avatar}`); // a rendition too
    expect(await storage().listKeys(`cache/ipx/${key}/`)).toHaveLength(1);
    // Older than the sweep's margin for uploads still on their way.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    await graphql(url(), UPDATE, { input: { avatar: null } }, user);
    await eventually(async () => {
      expect(await avatarsOf(user)).toEqual([]);
      expect(await storage().listKeys(`cache/ipx/${key}/`)).toEqual([]);
    }, 60_000);

    // Erasure: the account's pictures go, whenever they were stored.
    const again = await upload(user, jpeg);
    expect(again.data!.updateProfile.status.identifier).toBe('ok');
    expect(await avatarsOf(user)).toHaveLength(1);
    await produceRaw(platform.topicPrefix, TOPICS.identity, [
      {
        key: user.id,
        value: JSON.stringify(
          newEvent('UserDeleted', {
            aggregateId: user.id,
            actorId: null,
            data: { userId: user.id },
          }),
        ),
      },
    ]);
    await eventually(async () => expect(await avatarsOf(user)).toEqual([]), 60_000);
  }, 120_000);
});
