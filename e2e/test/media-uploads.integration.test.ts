import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TOPICS, newEvent } from '@challenge/events';
import { eventually, graphql, produceRaw, tokenFor } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDIT, challengeIn, person, send, type Person } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';
import { PNG, ffmpegVideo, startTusUpload, streamVideo, uploadVideo } from '../support/uploads.ts';

/**
 * Proof videos uploaded through the real gateway into real MinIO (issue 12, uploads and who may
 * see media): multipart requests streamed gateway -> media -> store; media's own projection of
 * the challenges (fed by challenge's events) decides who may upload and who gets signed URLs.
 */

const MAX = 500 * 1000 * 1000;
const MP4_HEAD = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom'),
  Buffer.alloc(20),
]);

const VIDEOS = `query ($r: [_Any!]!) { _entities(representations: $r) {
  ... on Challenge { id challengeVideos { id videoSource downloadUrl } } } }`;
const VIDEOS_OF = `query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) {
  status { success identifier } challenge { id challengeVideos { id videoSource downloadUrl } } } }`;

describe('proof video uploads and who may see them', { timeout: 120_000 }, () => {
  let platform: Platform;
  let staff: Person;
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  beforeAll(async () => {
    platform = await startPlatform();
    staff = await person(platform, { roles: ['moderator'] });
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
  });

  const url = () => platform.gateway.url;
  const storage = () => platform.media.app.storage;
  const db = () => platform.media.app.db;

  /** Waits until media's projection has the challenge in `status`. */
  async function projected(challengeId: string, status: string) {
    await eventually(async () => {
      const row = await db().challengeAccess.findUnique({ where: { challengeId } });
      if (row?.status !== status) throw new Error(`media sees ${row?.status}`);
      // Generous: under load a consumer-group rebalance (a topic appearing) pauses delivery.
    }, 60_000);
  }

  async function accepted(visibility: 'public' | 'private' = 'public') {
    const [owner, challenged] = await Promise.all([
      person(platform, { cents: 2_000 }),
      person(platform),
    ]);
    const { id, slug } = await challengeIn(
      platform,
      'accepted',
      { owner, challenged },
      { visibility },
    );
    await projected(id, 'accepted');
    return { owner, challenged, id, slug };
  }

  /** Codec and size of the first video stream, as ffprobe reads them. */
  async function probeVideo(bytes: Buffer) {
    const dir = await mkdtemp(path.join(tmpdir(), 'e2e-probe-'));
    try {
      const file = path.join(dir, 'video.mp4');
      await writeFile(file, bytes);
      const { stdout } = await promisify(execFile)('ffprobe', [
        ...[
          '-v',
          'error',
          '-select_streams',
          'v:0',
          '-show_entries',
          'stream=codec_name,width,height',
        ],
        ...['-of', 'csv=p=0', file],
      ]);
      const [codec, width, height] = stdout.trim().split(',');
      return { codec, width: Number(width), height: Number(height) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async function storedBytes(key: string): Promise<Buffer> {
    const signed = await storage().presignedGetUrl(key, 60);
    return Buffer.from(await (await fetch(signed)).arrayBuffer());
  }

  it.each([
    ['mp4', 'video/mp4', '320x240'],
    ['mov', 'video/quicktime', '240x320'],
    ['webm', 'video/webm', '320x240'],
  ] as const)(
    'the challenged user uploads an ffmpeg-made %s: the original kept whole, an H.264 MP4, thumbnail, aspect and duration, review, seekable',
    async (format, contentType, size) => {
      const { challenged, id } = await accepted();
      const bytes = await ffmpegVideo(format, size);
      const response = await uploadVideo(url(), challenged, id, {
        bytes,
        // The name lies on purpose: the type comes from the content.
        filename: 'whatever.bin',
        contentType: 'application/octet-stream',
      });
      const result = response.data?.createChallengeVideo;
      expect(result?.status).toMatchObject({ success: true, identifier: 'ok' });
      const row = await db().challengeVideo.findUniqueOrThrow({ where: { id: result.id } });
      expect(row).toMatchObject({
        challengeId: id,
        uploaderId: challenged.id,
        contentType,
        ownVideoConfirmed: true,
        originalKey: `videos/${result.id}/original.${format}`,
        sizeBytes: BigInt(bytes.length),
      });
      expect(sha256(await storedBytes(row.originalKey!))).toBe(sha256(bytes));
      // The pipeline takes it from there: a playable MP4 beside the original, the challenge in review.
      const ready = await eventually(async () => {
        const now = await db().challengeVideo.findUniqueOrThrow({ where: { id: result.id } });
        if (now.status !== 'ready') throw new Error(`video ${now.status}`);
        return now;
      }, 60_000);
      expect(ready.objectKey).toBe(`videos/${result.id}/video.mp4`);
      expect(ready.originalKey).toBe(`videos/${result.id}/original.${format}`);
      const [width, height] = size.split('x').map(Number);
      expect(ready.aspectMode).toBe(height! > width! ? 'portrait' : 'landscape');
      expect(Math.abs(ready.durationMs! - 2_000)).toBeLessThan(200);
      // What the browser plays: an H.264 MP4 of the same size, and a WebP thumbnail.
      const playable = await storedBytes(ready.objectKey!);
      expect(await probeVideo(playable)).toEqual({ codec: 'h264', width, height });
      expect(await storedBytes(ready.thumbnailKey!).then((b) => b.subarray(8, 12).toString())).toBe(
        'WEBP',
      );
      await eventually(async () => {
        const challenge = await platform.challenge.app.db.challenge.findUniqueOrThrow({
          where: { id },
        });
        expect(challenge.status).toBe('review');
      }, 30_000);
      // The signed link the browser gets works.
      expect(sha256(Buffer.from(await (await fetch(result.videoSource)).arrayBuffer()))).toBe(
        sha256(bytes),
      );
      // Seeking: the signed link answers a byte range with 206 and just those bytes.
      const part = await fetch(result.videoSource, { headers: { range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(100, 200));
    },
    150_000,
  );

  it('a PNG named .mp4 is refused with invalid_file, saying it is not a video, and nothing is stored', async () => {
    const { challenged, id } = await accepted();
    const response = await uploadVideo(url(), challenged, id, {
      bytes: PNG,
      filename: 'proof.mp4',
      contentType: 'video/mp4',
    });
    // The name says mp4: the text names the real problem, the content (issue 22, point 14).
    expect(response.data?.createChallengeVideo.status).toMatchObject({
      success: false,
      identifier: 'invalid_file',
      message:
        'The file is not a video: whatever its name says, its content is not mp4, mov or webm.',
    });
    expect(await db().challengeVideo.count({ where: { challengeId: id } })).toBe(0);
  });

  it('a refusal at the first bytes of a large body reaches the client (no reset)', async () => {
    const { challenged, id } = await accepted();
    // The answer goes out while 50 MB are still on their way: gateway and media must let the
    // client read it rather than reset the connection under its feet (a 502 upload_error).
    const answer = await streamVideo(url(), challenged, id, 50 * 1000 * 1000, PNG);
    expect(answer.body.data?.createChallengeVideo.status).toMatchObject({
      success: false,
      identifier: 'invalid_file',
    });
    expect(answer.sentBytes).toBeLessThan(50 * 1000 * 1000);
    expect(await db().challengeVideo.count({ where: { challengeId: id } })).toBe(0);
  });

  it('without the own-video confirmation nothing is stored', async () => {
    const { challenged, id } = await accepted();
    const response = await uploadVideo(
      url(),
      challenged,
      id,
      { bytes: await ffmpegVideo('mp4'), filename: 'a.mp4', contentType: 'video/mp4' },
      false,
    );
    expect(response.data?.createChallengeVideo.status).toMatchObject({
      success: false,
      identifier: 'challenge_video_upload_failed',
    });
    expect(await db().challengeVideo.count({ where: { challengeId: id } })).toBe(0);
  });

  it('a stranger, the owner, and the challenged user of a challenge not accepted are refused', async () => {
    const { owner, id } = await accepted('public');
    const stranger = await person(platform);
    const file = { bytes: await ffmpegVideo('mp4'), filename: 'a.mp4', contentType: 'video/mp4' };
    const outcome = async (as: Person, challengeId: string) =>
      (await uploadVideo(url(), as, challengeId, file)).data?.createChallengeVideo.status
        .identifier;
    expect(await outcome(stranger, id)).toBe('invalid_action');
    expect(await outcome(owner, id)).toBe('invalid_action');

    const [owner2, challenged2] = await Promise.all([
      person(platform, { cents: 2_000 }),
      person(platform),
    ]);
    const open = await challengeIn(platform, 'open', { owner: owner2, challenged: challenged2 });
    await projected(open.id, 'open');
    expect(await outcome(challenged2, open.id)).toBe('invalid_action');

    const privateOne = await accepted('private');
    expect(await outcome(stranger, privateOne.id)).toBe('challenge_not_found');
    const anonymous = await uploadVideo(url(), undefined, id, file);
    expect(anonymous.data?.createChallengeVideo.status.identifier).toBe('unauthorized');
    expect(await db().challengeVideo.count({ where: { challengeId: { in: [id, open.id] } } })).toBe(
      0,
    );
  }, 60_000);

  it('500 MB + 1 byte is refused with "File is too large" and leaves no object behind', async () => {
    const { challenged, id } = await accepted();
    const answer = await streamVideo(url(), challenged, id, MAX + 1, MP4_HEAD);
    expect(answer.body.data?.createChallengeVideo.status).toMatchObject({
      success: false,
      identifier: 'upload_error',
      message: 'File is too large',
    });
    expect(await db().challengeVideo.count({ where: { challengeId: id } })).toBe(0);
    // The aborted multipart upload left neither parts nor an object of that size.
    const large = (await storage().listObjects('videos/')).filter((o) => o.size > MAX - 10);
    expect(large).toEqual([]);
    expect(await storage().listIncompleteUploads('videos/')).toEqual([]);
  }, 180_000);

  it('a resumable (tus) upload cut mid-way resumes at the stored offset and stores the same file', async () => {
    const { challenged, id } = await accepted();
    const PART = 8 * 1024 * 1024;
    const bytes = Buffer.concat([MP4_HEAD, randomBytes(3 * PART + 1234 - MP4_HEAD.length)]);
    const { created, auth } = await startTusUpload(url(), challenged, id, bytes.length);
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location')!, url());
    expect(location.pathname).toMatch(/^\/api\/uploads\/tus\/[0-9a-f-]{36}$/);
    const offset = async () =>
      Number(
        (await fetch(location, { method: 'HEAD', headers: auth })).headers.get('upload-offset'),
      );

    // Two parts and a bit are sent, then the connection is cut.
    const cut = request(location, {
      method: 'PATCH',
      headers: {
        ...auth,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': '0',
        'content-length': String(bytes.length),
      },
    });
    cut.on('error', () => undefined);
    cut.write(bytes.subarray(0, 2 * PART + 100_000));
    await eventually(async () => {
      const now = await offset();
      if (now !== 2 * PART) throw new Error('parts not stored yet');
    }, 20_000);
    cut.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The bytes of the part in progress are gone; the stored parts count.
    expect(await offset()).toBe(2 * PART);

    const resumed = await fetch(location, {
      method: 'PATCH',
      headers: {
        ...auth,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': String(2 * PART),
      },
      body: bytes.subarray(2 * PART),
    });
    expect(resumed.status).toBe(204);
    expect(resumed.headers.get('upload-offset')).toBe(String(bytes.length));
    const videoId = resumed.headers.get('upload-video-id')!;
    const row = await db().challengeVideo.findUniqueOrThrow({ where: { id: videoId } });
    expect(row).toMatchObject({ challengeId: id, contentType: 'video/mp4' });
    expect(sha256(await storedBytes(row.originalKey!))).toBe(sha256(bytes));
    // Someone else cannot read or continue the session.
    const stranger = await person(platform);
    const foreign = await fetch(location, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${await tokenFor(stranger)}`, 'tus-resumable': '1.0.0' },
    });
    expect(foreign.status).toBe(404);
  }, 120_000);

  it('a resumable upload cancelled through the gateway (tus DELETE) leaves no parts and no session', async () => {
    const { challenged, id } = await accepted();
    const PART = 8 * 1024 * 1024;
    const bytes = Buffer.concat([MP4_HEAD, randomBytes(2 * PART - MP4_HEAD.length)]);
    const { created, auth } = await startTusUpload(url(), challenged, id, bytes.length);
    expect(created.status).toBe(201);
    expect(created.headers.get('upload-expires')).toBeTruthy();
    const location = new URL(created.headers.get('location')!, url());
    // One part stored, then the performer cancels.
    const first = await fetch(location, {
      method: 'PATCH',
      headers: {
        ...auth,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': '0',
      },
      body: bytes.subarray(0, PART + 10),
    });
    expect(first.headers.get('upload-offset')).toBe(String(PART));
    const sessionId = location.pathname.split('/').pop()!;
    const session = await db().videoUploadSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(await storage().listIncompleteUploads(session.objectKey!)).toEqual([session.objectKey]);
    const stranger = await person(platform);
    const foreign = await fetch(location, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await tokenFor(stranger)}`, 'tus-resumable': '1.0.0' },
    });
    expect(foreign.status).toBe(404);
    const cancelled = await fetch(location, { method: 'DELETE', headers: auth });
    expect(cancelled.status).toBe(204);
    expect(cancelled.headers.get('tus-resumable')).toBe('1.0.0');
    expect(await storage().listIncompleteUploads(session.objectKey!)).toEqual([]);
    expect(await db().videoUploadSession.findUnique({ where: { id: sessionId } })).toBeNull();
    expect((await fetch(location, { method: 'HEAD', headers: auth })).status).toBe(404);
    // The gateway answers discovery too.
    const options = await fetch(new URL('/api/uploads/tus', url()), { method: 'OPTIONS' });
    expect(options.headers.get('tus-extension')).toContain('termination');
  }, 120_000);

  it('a resumable upload over 500 MB is refused at creation, a PNG at its first bytes', async () => {
    const { challenged, id } = await accepted();
    const create = (length: number) => startTusUpload(url(), challenged, id, length);
    const { created: tooLarge } = await create(MAX + 1);
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { status: object }).status).toMatchObject({
      identifier: 'upload_error',
      message: 'File is too large',
    });
    const { created, auth } = await create(PNG.length);
    const location = new URL(created.headers.get('location')!, url());
    const png = await fetch(location, {
      method: 'PATCH',
      headers: {
        ...auth,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': '0',
      },
      body: PNG,
    });
    expect(png.status).toBe(415);
    expect(((await png.json()) as { status: object }).status).toMatchObject({
      identifier: 'invalid_file',
    });
    expect(await db().challengeVideo.count({ where: { challengeId: id } })).toBe(0);
  });

  describe('signed URLs only for those who may see the challenge', () => {
    async function withReadyVideo(visibility: 'public' | 'private') {
      const challenge = await accepted(visibility);
      const response = await uploadVideo(url(), challenge.challenged, challenge.id, {
        bytes: await ffmpegVideo('mp4'),
        filename: 'a.mp4',
        contentType: 'video/mp4',
      });
      const videoId = response.data?.createChallengeVideo.id as string;
      // What processing will do: the video becomes ready.
      await db().challengeVideo.update({ where: { id: videoId }, data: { status: 'ready' } });
      return { ...challenge, videoId };
    }

    const viaGateway = async (slug: string, as?: Person) =>
      (await graphql(url(), VIDEOS_OF, { input: { slug } }, as)).data?.getChallengeBySlug.challenge
        ?.challengeVideos;
    /** The entity asked of media directly, bypassing the gateway and the challenge subgraph. */
    const viaMedia = async (challengeId: string, as?: Person) =>
      (
        await graphql(
          platform.media.url,
          VIDEOS,
          { r: [{ __typename: 'Challenge', id: challengeId }] },
          as,
        )
      ).data?._entities[0].challengeVideos;

    it('a private challenge: its parties and staff get URLs, a stranger none, also asking media directly', async () => {
      const { owner, challenged, id, slug, videoId } = await withReadyVideo('private');
      const stranger = await person(platform);
      for (const who of [owner, challenged, staff]) {
        const videos = await viaMedia(id, who);
        expect(videos).toEqual([expect.objectContaining({ id: videoId })]);
        // The download is the original as uploaded.
        expect(videos[0].downloadUrl).toContain(`videos/${videoId}/original.mp4`);
      }
      expect(await viaGateway(slug, owner)).toEqual([expect.objectContaining({ id: videoId })]);
      expect(await viaMedia(id, stranger)).toEqual([]);
      expect(await viaMedia(id)).toEqual([]);
      expect(await viaGateway(slug, stranger)).toBeUndefined();
    }, 60_000);

    it('a challenge taken offline: staff only, even for its parties and when public', async () => {
      const { owner, id, videoId } = await withReadyVideo('public');
      expect(await viaMedia(id)).toEqual([expect.objectContaining({ id: videoId })]);
      await produceRaw(platform.topicPrefix, TOPICS.moderation, [
        {
          key: id,
          value: JSON.stringify(
            newEvent('ChallengeTakenOffline', {
              aggregateId: id,
              actorId: staff.id,
              data: { challengeId: id, moderatorId: staff.id, reportId: null },
            }),
          ),
        },
      ]);
      await eventually(async () => {
        if ((await viaMedia(id, owner))?.length !== 0) throw new Error('still shown');
      }, 20_000);
      expect(await viaMedia(id)).toEqual([]);
      expect(await viaMedia(id, staff)).toEqual([expect.objectContaining({ id: videoId })]);
    }, 60_000);

    /** Status and bytes of a signed link, fetched as a browser would. */
    const fetchLink = async (link: string) => {
      const response = await fetch(link);
      return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
    };
    /** Waits until a link handed out before is refused (media moved the objects: ADR 65). */
    const refused = async (link: string) =>
      eventually(async () => {
        const { status } = await fetchLink(link);
        if (status === 200) throw new Error('the old link still works');
        return status;
      }, 30_000);

    it("taken offline: a party's link signed before stops working, staff's new link serves the same bytes (ADR 65)", async () => {
      const { challenged, id, slug, videoId } = await withReadyVideo('public');
      const [before] = await viaGateway(slug, challenged);
      const old = await fetchLink(before.videoSource);
      expect(old.status).toBe(200);
      expect((await fetchLink(before.downloadUrl)).status).toBe(200);
      await produceRaw(platform.topicPrefix, TOPICS.moderation, [
        {
          key: id,
          value: JSON.stringify(
            newEvent('ChallengeTakenOffline', {
              aggregateId: id,
              actorId: staff.id,
              data: { challengeId: id, moderatorId: staff.id, reportId: null },
            }),
          ),
        },
      ]);
      expect([403, 404]).toContain(await refused(before.videoSource));
      expect([403, 404]).toContain((await fetchLink(before.downloadUrl)).status);
      expect(await viaGateway(slug, challenged)).toBeUndefined();
      const [fresh] = await viaGateway(slug, staff);
      expect(fresh).toMatchObject({ id: videoId });
      const now = await fetchLink(fresh.videoSource);
      expect(now.status).toBe(200);
      expect(sha256(now.bytes)).toBe(sha256(old.bytes));
      expect((await fetchLink(fresh.downloadUrl)).status).toBe(200);
    }, 90_000);

    it("made private: a stranger's link signed before stops working, a party's new link works (ADR 65)", async () => {
      const { owner, challenged, id, slug, videoId } = await withReadyVideo('public');
      const stranger = await person(platform);
      const [before] = await viaGateway(slug, stranger);
      const old = await fetchLink(before.videoSource);
      expect(old.status).toBe(200);
      const edited = await send(platform, EDIT, { input: { slug, visibility: 'private' } }, owner);
      expect(edited.data?.updateChallenge.status).toMatchObject({ success: true });
      expect([403, 404]).toContain(await refused(before.videoSource));
      expect(await viaMedia(id, stranger)).toEqual([]);
      const [fresh] = await viaGateway(slug, challenged);
      expect(fresh).toMatchObject({ id: videoId });
      const now = await fetchLink(fresh.videoSource);
      expect(now.status).toBe(200);
      expect(sha256(now.bytes)).toBe(sha256(old.bytes));
    }, 90_000);
  });
  describe('duels: both parties upload their own proof (docs/adr/0055)', () => {
    const SIDES = `query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) {
      challenge { status sides { performer { id } status } } } }`;

    async function sidesOf(slug: string, as: Person) {
      const response = await graphql(url(), SIDES, { input: { slug } }, as);
      const challenge = response.data?.getChallengeBySlug.challenge;
      const sides = (challenge?.sides ?? []) as { performer: { id: string }; status: string }[];
      return Object.fromEntries(sides.map((side) => [side.performer.id, side.status]));
    }

    it('the owner uploads first, the side moves to review, then the challenged user; a side takes one video', async () => {
      const [owner, challenged] = await Promise.all([
        person(platform, { cents: 2_000 }),
        person(platform, { cents: 2_000 }),
      ]);
      const { id, slug } = await challengeIn(
        platform,
        'accepted',
        { owner, challenged },
        { challengeType: 'duel' },
      );
      await projected(id, 'accepted');
      const file = async () => ({
        bytes: await ffmpegVideo('mp4'),
        filename: 'mine.mp4',
        contentType: 'video/mp4',
      });
      const upload = async (as: Person) =>
        (await uploadVideo(url(), as, id, await file())).data?.createChallengeVideo;

      const ownersVideo = await upload(owner);
      expect(ownersVideo?.status).toMatchObject({ success: true, identifier: 'ok' });
      // One video at a time: while the first is on its way, a second of the same side is refused.
      expect((await upload(owner))?.status.identifier).toBe('invalid_action');
      // Processed, VideoProcessed names the owner as the uploader: the owner's side is in review.
      await eventually(async () => {
        expect(await sidesOf(slug, owner)).toEqual({
          [owner.id]: 'review',
          [challenged.id]: 'awaiting_video',
        });
      }, 60_000);
      const row = await db().challengeVideo.findUniqueOrThrow({ where: { id: ownersVideo.id } });
      expect(row).toMatchObject({ uploaderId: owner.id, status: 'ready' });
      // The duel is in review now; the challenged user's side still waits, so they may upload.
      await projected(id, 'review');
      const challengedVideo = await upload(challenged);
      expect(challengedVideo?.status).toMatchObject({ success: true, identifier: 'ok' });
      await eventually(async () => {
        expect(await sidesOf(slug, challenged)).toEqual({
          [owner.id]: 'review',
          [challenged.id]: 'review',
        });
      }, 60_000);
      // Each side has had its video: neither party may upload another.
      for (const party of [owner, challenged]) {
        expect((await upload(party))?.status.identifier).toBe('invalid_action');
      }
      const stranger = await person(platform);
      expect((await upload(stranger))?.status.identifier).toBe('invalid_action');
      expect(await db().challengeVideo.count({ where: { challengeId: id } })).toBe(2);
    }, 180_000);

    it('the owner of a solo challenge is still refused', async () => {
      const { owner, id } = await accepted();
      const response = await uploadVideo(url(), owner, id, {
        bytes: await ffmpegVideo('mp4'),
        filename: 'a.mp4',
        contentType: 'video/mp4',
      });
      expect(response.data?.createChallengeVideo.status.identifier).toBe('invalid_action');
      expect(await db().challengeVideo.count({ where: { challengeId: id } })).toBe(0);
    });
  });

  describe('visibility changes reach media (docs/adr/0056)', () => {
    const ENTITY = `query ($r: [_Any!]!) { _entities(representations: $r) {
      ... on Challenge { id thumbnailUrl challengeVideos { id videoSource } } } }`;
    const VIA_GATEWAY = `query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) {
      challenge { id thumbnailUrl challengeVideos { id videoSource } } } }`;

    it('public made private: a stranger gets no URL, also asking media directly; public again: allowed', async () => {
      const { owner, challenged, id, slug } = await accepted('public');
      const response = await uploadVideo(url(), challenged, id, {
        bytes: await ffmpegVideo('mp4'),
        filename: 'a.mp4',
        contentType: 'video/mp4',
      });
      const videoId = response.data?.createChallengeVideo.id as string;
      await eventually(async () => {
        const now = await db().challengeVideo.findUniqueOrThrow({ where: { id: videoId } });
        if (now.status !== 'ready') throw new Error(`video ${now.status}`);
      }, 60_000);
      const stranger = await person(platform);
      const viaMedia = async (as?: Person) =>
        (await graphql(platform.media.url, ENTITY, { r: [{ __typename: 'Challenge', id }] }, as))
          .data?._entities[0];
      const viaGateway = async (as?: Person) =>
        (await graphql(url(), VIA_GATEWAY, { input: { slug } }, as)).data?.getChallengeBySlug
          .challenge;
      const seen = await viaMedia(stranger);
      expect(seen.challengeVideos).toEqual([expect.objectContaining({ id: videoId })]);
      expect(seen.thumbnailUrl).toContain(`videos/${videoId}/`);
      expect((await viaGateway(stranger))?.challengeVideos).toHaveLength(1);

      const edit = async (visibility: 'public' | 'private') => {
        const edited = await send(platform, EDIT, { input: { slug, visibility } }, owner);
        expect(edited.data?.updateChallenge.status).toMatchObject({ success: true });
      };
      await edit('private');
      await eventually(async () => {
        const now = await viaMedia(stranger);
        if (now.challengeVideos.length !== 0) throw new Error('still shown to a stranger');
      }, 30_000);
      expect(await viaMedia(stranger)).toEqual({ id, thumbnailUrl: null, challengeVideos: [] });
      expect(await viaMedia()).toEqual({ id, thumbnailUrl: null, challengeVideos: [] });
      expect(await viaGateway(stranger)).toBeFalsy();
      // Its parties still see it.
      expect((await viaMedia(owner)).challengeVideos).toHaveLength(1);
      expect((await viaGateway(challenged))?.thumbnailUrl).toContain(`videos/${videoId}/`);

      await edit('public');
      await eventually(async () => {
        const now = await viaMedia(stranger);
        if (now.challengeVideos.length !== 1) throw new Error('not shown again');
      }, 30_000);
      expect((await viaMedia()).thumbnailUrl).toContain(`videos/${videoId}/`);
      expect((await viaGateway(stranger))?.challengeVideos).toEqual([
        expect.objectContaining({ id: videoId }),
      ]);
      const access = await db().challengeAccess.findUniqueOrThrow({ where: { challengeId: id } });
      expect(access).toMatchObject({ visibility: 'public', visibilityVersion: 2 });
    }, 180_000);
  });
});
