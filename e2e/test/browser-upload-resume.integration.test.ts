import { createHash } from 'node:crypto';
import { eventually } from '@challenge/testing';
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, shoot, webDist } from '../support/browser.ts';
import { challengeIn, person } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';
import { ffmpegVideo } from '../support/uploads.ts';

const PART = 8 * 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The web's own tus client (ADR 51) in Chromium against the whole platform: the connection is
 * cut under the second chunk, the dialog says so, the client asks the server where it stands and
 * sends the rest, and the stored original is the very file picked (same SHA-256). Screenshots of
 * the progress and of the retrying state go to e2e/test-results/screenshots/.
 */
describe('a resumable upload in the browser', () => {
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

  it('a cut connection is retried where it stopped and the stored file is the one picked', async () => {
    const [owner, challenged] = await Promise.all([
      person(platform, { cents: 2_000 }),
      person(platform),
    ]);
    const { id, slug } = await challengeIn(platform, 'accepted', { owner, challenged });
    await eventually(async () => {
      const row = await platform.media.app.db.challengeAccess.findUnique({
        where: { challengeId: id },
      });
      if (row?.status !== 'accepted') throw new Error(`media sees ${row?.status}`);
    }, 60_000);
    // A real mp4 padded past one chunk, so that there is a second chunk to cut.
    const video = await ffmpegVideo('mp4');
    const bytes = Buffer.concat([video, Buffer.alloc(PART + 512 * 1024 - video.length)]);

    const page = await browsers.pageOf(challenged);
    // The second PATCH is held for a picture of the progress, then cut; the HEAD that follows
    // is held for a picture of the retrying state.
    const seen: string[] = [];
    let patches = 0;
    let heads = 0;
    let releasePatch: () => void = () => undefined;
    const patchHeld = new Promise<void>((resolve) => (releasePatch = resolve));
    let releaseHead: () => void = () => undefined;
    const headHeld = new Promise<void>((resolve) => (releaseHead = resolve));
    await page.route('**/api/uploads/tus/**', async (route: Route) => {
      const request = route.request();
      seen.push(`${request.method()} ${request.headers()['upload-offset'] ?? ''}`.trim());
      if (request.method() === 'PATCH' && ++patches === 2) {
        await patchHeld;
        await route.abort('connectionreset');
        return;
      }
      if (request.method() === 'HEAD' && ++heads === 1) await headHeld;
      await route.continue();
    });

    await page.goto(`${platform.origin}/challenge/${slug}/detail`);
    await page.getByRole('button', { name: 'Upload video' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload your proof video' });
    await dialog.getByTestId('video-file').setInputFiles({
      name: 'proof.mp4',
      mimeType: 'video/mp4',
      buffer: bytes,
    });
    await dialog.getByRole('checkbox', { name: 'I confirm that this video is my own.' }).check();
    await dialog.getByRole('button', { name: 'Upload' }).click();

    // The first chunk is stored: the bar shows it while the second is on its way.
    const bar = dialog.getByRole('progressbar', { name: 'Upload progress' });
    await eventually(async () => {
      expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(90);
    }, 30_000);
    await shoot(page, 'upload-progress', { fullPage: false });
    releasePatch();

    await dialog.getByText('Connection lost, retrying…').waitFor({ timeout: 30_000 });
    await shoot(page, 'upload-retrying', { fullPage: false });
    releaseHead();

    await page.getByText('Your video is being processed').waitFor({ timeout: 60_000 });
    expect(seen).toEqual([`PATCH 0`, `PATCH ${PART}`, 'HEAD', `PATCH ${PART}`]);
    const row = await platform.media.app.db.challengeVideo.findFirstOrThrow({
      where: { challengeId: id },
    });
    const signed = await platform.media.app.storage.presignedGetUrl(row.originalKey!, 60);
    expect(sha256(Buffer.from(await (await fetch(signed)).arrayBuffer()))).toBe(sha256(bytes));
    // Finished: nothing is left to resume in the browser.
    expect(
      await page.evaluate(
        "Object.keys(localStorage).filter((key) => key.startsWith('challenge.tus:'))",
      ),
    ).toEqual([]);
  }, 240_000);
});
