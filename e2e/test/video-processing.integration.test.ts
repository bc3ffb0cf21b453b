import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { seedUploadedVideo } from '@challenge/media/seed';
import { eventually, inbox } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  challengeIn,
  challengeOf,
  person,
  send,
  statusBecomes,
  type Person,
} from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

/**
 * The video pipeline with all six services (issue 12, part 2): what an upload leaves behind
 * (original, row, job) goes through media's real worker (ffprobe, ffmpeg, sharp), and its
 * VideoProcessed, through the outbox and Kafka, moves the challenge to review. The upload itself
 * is another change: `seedUploadedVideo` stands in for it.
 */

const run = promisify(execFile);
const VIDEOS = `query ($input: GetChallengeBySlugInput!) {
  getChallengeBySlug(input: $input) {
    status { success identifier }
    challenge {
      status
      challengeVideos {
        aspectMode
        videoSource
        thumbnailUrl
        recycledFrom { challengeId challenge { slug } }
      }
    }
  }
}`;

describe('a proof video through the processing pipeline', () => {
  let platform: Platform;
  let scratch: string;

  beforeAll(async () => {
    platform = await startPlatform();
    scratch = await mkdtemp(path.join(os.tmpdir(), 'e2e-video-'));
  });
  afterAll(async () => {
    await platform?.stop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  async function parties(): Promise<{ owner: Person; challenged: Person }> {
    const [owner, challenged] = await Promise.all([
      person(platform, { cents: 5_000 }),
      person(platform),
    ]);
    return { owner, challenged };
  }

  const videos = async (as: Person, slug: string) => {
    const response = await send(platform, VIDEOS, { input: { slug } }, as);
    expect(response.errors).toBeUndefined();
    return response.data!.getChallengeBySlug.challenge;
  };

  it('moves the challenge to review with a playable portrait video, and flags the same video sent for another challenge', async () => {
    const { owner, challenged } = await parties();
    const first = await challengeIn(platform, 'accepted', { owner, challenged });
    const clip = path.join(scratch, 'proof.mp4');
    await run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=360x640:rate=25', '-f', 'lavfi', '-i', 'sine'],
      ...['-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', clip],
    ]);
    const bytes = await readFile(clip);
    await seedUploadedVideo(platform.media.app, {
      challengeId: first.id,
      uploaderId: challenged.id,
      bytes,
      extension: 'mp4',
    });

    await statusBecomes(platform, owner, first.slug, 'review');
    const [video] = (await videos(owner, first.slug)).challengeVideos;
    expect(video).toMatchObject({ aspectMode: 'portrait', recycledFrom: null });
    const playable = path.join(scratch, 'played.mp4');
    await writeFile(playable, Buffer.from(await (await fetch(video.videoSource)).arrayBuffer()));
    const { stdout } = await run('ffprobe', [
      ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,height'],
      ...['-of', 'csv=p=0', playable],
    ]);
    expect(stdout.trim()).toBe('h264,640');
    expect((await fetch(video.thumbnailUrl)).headers.get('content-type')).toBe('image/webp');

    // The same file as proof of another challenge of the same owner.
    const second = await challengeIn(platform, 'accepted', { owner, challenged });
    await seedUploadedVideo(platform.media.app, {
      challengeId: second.id,
      uploaderId: challenged.id,
      bytes,
      extension: 'mp4',
    });
    await statusBecomes(platform, owner, second.slug, 'review');
    const [recycled] = (await videos(owner, second.slug)).challengeVideos;
    expect(recycled.recycledFrom).toEqual({
      challengeId: first.id,
      challenge: { slug: first.slug },
    });
    // The uploader does not see the flag.
    const [asUploader] = (await videos(challenged, second.slug)).challengeVideos;
    expect(asUploader.recycledFrom).toBeNull();
  });

  it('leaves the challenge accepted and mails the uploader when the video cannot be decoded', async () => {
    const { owner, challenged } = await parties();
    const challenge = await challengeIn(platform, 'accepted', { owner, challenged });
    const { id } = await seedUploadedVideo(platform.media.app, {
      challengeId: challenge.id,
      uploaderId: challenged.id,
      bytes: Buffer.from('these bytes are no video'),
      extension: 'mp4',
    });
    const mail = await eventually(async () => {
      const message = (await inbox(challenged.email)).find((caught) =>
        caught.subject.includes('video'),
      );
      if (!message) throw new Error('no mail yet');
      return message;
    }, 30_000);
    expect(mail.subject).toBe('Your video could not be processed');
    expect(mail.text).toContain('We could not play the video you uploaded as proof');
    const row = await platform.media.app.db.challengeVideo.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'failed', failureReason: 'invalid_video' });
    expect((await challengeOf(platform, owner, challenge.slug)).challenge.status).toBe('accepted');
    expect((await videos(owner, challenge.slug)).challengeVideos).toEqual([]);
  });
});
