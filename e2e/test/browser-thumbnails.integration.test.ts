import { isKnownUser } from '@challenge/challenge/seed';
import { eventually } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, shoot, webDist } from '../support/browser.ts';
import { challengeIn, person, type Person } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';
import { ffmpegVideo, uploadVideo } from '../support/uploads.ts';

/**
 * The cards of the home page's discover list and of a profile's tab show the thumbnail of each
 * challenge's proof video (media's `Challenge.thumbnailUrl`, ADR 56), a placeholder where there
 * is none, in Debian's Chromium against the built web app and all six services. Screenshots at
 * phone and desktop width under e2e/test-results/screenshots/.
 */
describe('challenge cards with thumbnails in the browser', () => {
  let platform: Platform;
  let browsers: Browsers;

  beforeAll(async () => {
    platform = await startPlatform({}, {}, { webDist });
    browsers = await Browsers.launch(platform.origin);
  }, 120_000);
  afterAll(async () => {
    await browsers?.close();
    await platform?.stop();
  });

  async function adult(cents?: number): Promise<Person> {
    const who = await person(platform, cents ? { cents } : {});
    await eventually(async () => {
      if (!(await isKnownUser(platform.challenge.app.db, who.id)))
        throw new Error(`challenge does not know ${who.username} yet`);
    });
    return who;
  }

  /** An accepted public challenge whose proof (an ffmpeg-made clip) is processed. */
  async function withProof(owner: Person, challenged: Person, size: string, name: string) {
    const { id, slug } = await challengeIn(platform, 'accepted', { owner, challenged }, {});
    await eventually(async () => {
      const row = await platform.media.app.db.challengeAccess.findUnique({
        where: { challengeId: id },
      });
      if (row?.status !== 'accepted') throw new Error('media does not know it accepted yet');
    }, 60_000);
    const response = await uploadVideo(platform.gateway.url, challenged, id, {
      bytes: await ffmpegVideo('mp4', size),
      filename: `${name}.mp4`,
      contentType: 'video/mp4',
    });
    const videoId = response.data?.createChallengeVideo.id as string;
    await eventually(async () => {
      const video = await platform.media.app.db.challengeVideo.findUniqueOrThrow({
        where: { id: videoId },
      });
      if (video.status !== 'ready') throw new Error(`video ${video.status}`);
    }, 90_000);
    return slug;
  }

  it('the home list and a profile tab show each proof thumbnail, a placeholder where there is none', async () => {
    const [owner, challenged] = await Promise.all([adult(5_000), adult()]);
    await withProof(owner, challenged, '320x240', 'landscape');
    await withProof(owner, challenged, '240x320', 'portrait');
    await challengeIn(platform, 'open', { owner, challenged }, {});

    const page = await browsers.pageOf();
    await page.goto(`${platform.origin}/`);
    const list = page.getByRole('list', { name: 'All challenges' });
    await list.getByRole('listitem').nth(2).waitFor();
    const images = list.locator('[data-testid="challenge-thumbnail"] img');
    await expect(images.count()).resolves.toBe(2);
    await expect(list.getByTestId('challenge-thumbnail-placeholder').count()).resolves.toBe(1);
    // The signed links load in the browser (decoded: a real WebP from the pipeline).
    await eventually(async () => {
      const widths = await images.evaluateAll((nodes) =>
        nodes.map((node) => (node as unknown as { naturalWidth: number }).naturalWidth),
      );
      expect(widths.every((width) => width > 0)).toBe(true);
    }, 20_000);
    // Every box has the same size, image or not, so nothing moves when an image arrives.
    const boxes = await list
      .getByTestId('challenge-thumbnail')
      .evaluateAll((nodes) => nodes.map((node) => `${node.clientWidth}x${node.clientHeight}`));
    expect(new Set(boxes).size).toBe(1);
    await shoot(page, 'cards-home-thumbnails');

    await page.goto(`${platform.origin}/profile/${challenged.username}/ongoing-challenges`);
    const tab = page.getByRole('list', { name: 'Ongoing challenges' });
    await tab.getByRole('listitem').first().waitFor();
    await eventually(async () => {
      await expect(tab.locator('[data-testid="challenge-thumbnail"] img').count()).resolves.toBe(2);
    }, 20_000);
    await shoot(page, 'cards-profile-thumbnails');
  }, 300_000);
});
