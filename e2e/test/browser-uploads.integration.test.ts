import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { isKnownUser } from '@challenge/challenge/seed';
import { eventually } from '@challenge/testing';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browsers, heading, shoot, webDist } from '../support/browser.ts';
import { challengeIn, person, send, walletsBecome, type Person } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

const run = promisify(execFile);

/** What the test reads of the page's <video> (this package has no DOM types). */
interface VideoElement {
  muted: boolean;
  readyState: number;
  currentTime: number;
  videoWidth: number;
  videoHeight: number;
  error: { code: number } | null;
  play(): Promise<void>;
  pause(): void;
}
const FUNDS = 2_000;
const REWARD = 700;

/**
 * Issue 12's browser test: in Debian's Chromium, against the built web app served by the
 * gateway in front of all six services (media with its real ffmpeg worker), the challenged
 * person of an accepted challenge uploads a real portrait mp4 made by ffmpeg here, through the
 * upload dialog with its progress bar; the owner's page, open all along, shows the processed
 * video without a reload, plays it (Debian's Chromium decodes H.264: docs/adr/0053), downloads
 * it and approves, and the reward moves. A PNG named .mp4 is refused in the dialog. The dialog is
 * driven by its labels only, so the upload client underneath (multipart or tus) may change.
 * Screenshots at phone and desktop width under e2e/test-results/screenshots/ (ADR 48).
 */
describe('a proof video uploaded and watched in the browser', () => {
  let platform: Platform;
  let browsers: Browsers;
  let scratch: string;
  /** A 4 s portrait (360x640) H.264/AAC mp4, as a phone films it. */
  let clip: string;
  /** A real PNG under a video's name. */
  let fakeVideo: string;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'e2e-browser-upload-'));
    clip = path.join(scratch, 'proof.mp4');
    fakeVideo = path.join(scratch, 'holiday.mp4');
    const ffmpeg = (...args: string[]) =>
      run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
    const [started] = await Promise.all([
      startPlatform({}, {}, { webDist }),
      ffmpeg(
        ...['-f', 'lavfi', '-i', 'testsrc2=size=360x640:rate=25', '-f', 'lavfi', '-i', 'sine'],
        ...['-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
        ...['-c:a', 'aac', '-movflags', '+faststart', clip],
      ),
      ffmpeg(
        ...['-f', 'lavfi', '-i', 'color=c=orange:size=64x64', '-frames:v', '1'],
        ...['-f', 'image2', '-c:v', 'png', fakeVideo],
      ),
    ]);
    platform = started;
    browsers = await Browsers.launch(platform.origin);
  }, 120_000);
  afterAll(async () => {
    await browsers?.close();
    await platform?.stop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  /** An adult whom challenge's projection knows (so a challenge for them can be created). */
  async function adult(cents?: number): Promise<Person> {
    const who = await person(platform, cents ? { cents } : {});
    await eventually(async () => {
      if (!(await isKnownUser(platform.challenge.app.db, who.id)))
        throw new Error(`challenge does not know ${who.username} yet`);
    });
    return who;
  }

  const detailOf = (slug: string) =>
    `${platform.origin}/challenge/${encodeURIComponent(slug)}/detail`;

  /**
   * The challenge's page opened by `who`, its heading shown. The page records what its Content
   * Security Policy refuses (`cspViolations`): a poster or video the policy blocks shows nothing.
   */
  async function openChallenge(who: Person, slug: string, language: 'en' | 'nl' = 'en') {
    const page = await browsers.pageOf(who, { language });
    await page.addInitScript({
      content: `window.cspViolations = [];
        document.addEventListener('securitypolicyviolation', (event) =>
          window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));`,
    });
    await page.goto(detailOf(slug));
    await heading(page, /Juggle three oranges/).waitFor();
    return page;
  }

  /**
   * Slows this page's uploads to about `bytesPerSecond` (Chromium's own network emulation), so
   * that a small file's progress stays on the screen long enough to be seen; `null` lifts it.
   */
  async function throttleUploads(page: Page, bytesPerSecond: number | null) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond ?? -1,
    });
  }

  it('the challenged person uploads with a progress bar; the owner sees it play, downloads it and approves', async () => {
    const [owner, challenged] = await Promise.all([adult(FUNDS), adult()]);
    const { slug } = await challengeIn(
      platform,
      'accepted',
      { owner, challenged },
      { reward: REWARD },
    );
    const proofPhrase = await proofPhraseOf(owner, slug);
    const original = await readFile(clip);

    // The owner has the page open before anything is uploaded, and never reloads it.
    const ownerPage = await openChallenge(owner, slug);
    await ownerPage.getByText('accepted and is working on the video').waitFor();

    const challengedPage = await openChallenge(challenged, slug);
    await challengedPage.getByRole('button', { name: 'Upload video' }).click();
    const dialog = challengedPage.getByRole('dialog', { name: 'Upload your proof video' });
    await dialog.getByLabel('Video file').setInputFiles(clip);
    const send = dialog.getByRole('button', { name: 'Upload', exact: true });
    // Nothing is sent before the person confirms the video is their own.
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'I confirm that this video is my own.' }).check();
    expect(await send.isEnabled()).toBe(true);
    await shoot(challengedPage, 'upload-dialog', { fullPage: false });

    // About eight seconds on the wire (a loaded machine takes seconds for a screenshot): the
    // progress bar with the percentage and the time left.
    await throttleUploads(challengedPage, Math.ceil(original.length / 8));
    await send.click();
    const bar = dialog.getByRole('progressbar', { name: 'Upload progress' });
    const percent = Number(await bar.getAttribute('aria-valuenow'));
    expect(percent).toBeGreaterThanOrEqual(0);
    expect(percent).toBeLessThan(100);
    await dialog.getByText(/^\d{1,3}%$/).waitFor();
    await dialog.getByText(/left|Estimating/).waitFor();
    await shoot(challengedPage, 'upload-progress', { fullPage: false });

    // Sent: the dialog closes and the page says the video is being processed.
    await challengedPage
      .getByRole('status')
      .filter({ hasText: 'Your video is being processed' })
      .waitFor({ timeout: 30_000 });
    await throttleUploads(challengedPage, null);
    await dialog.waitFor({ state: 'hidden' });
    await shoot(challengedPage, 'upload-processing');

    // Processed by media's worker: the owner's page shows the player without a reload.
    const player = ownerPage.getByLabel('Proof video');
    await player.waitFor({ timeout: 90_000 });
    await ownerPage.getByRole('button', { name: 'Approve video' }).waitFor({ timeout: 30_000 });
    const video = ownerPage.getByRole('region', { name: 'Video' });
    await video.getByText(proofPhrase).waitFor();

    // The poster is the WebP thumbnail media made; the frame is a portrait one.
    const poster = await player.getAttribute('poster');
    expect(poster).toBeTruthy();
    const thumbnail = await fetch(poster!);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    // ... and the page's policy lets the browser show it (an image the policy refused is an error).
    const posterShown = await ownerPage.evaluate(`new Promise((resolve) => {
      const image = new Image();
      image.onload = () => resolve('loaded');
      image.onerror = () => resolve('refused');
      image.src = ${JSON.stringify(poster)};
    })`);
    expect(posterShown).toBe('loaded');
    const frame = await player.boundingBox();
    expect(frame!.height).toBeGreaterThan(frame!.width * 1.5);

    // It plays in Chromium: the H.264 720p-at-most transcode decodes and time runs.
    await player.evaluate(async (element: VideoElement) => {
      element.muted = true;
      await element.play();
    });
    await ownerPage.waitForFunction(
      (element) => {
        const media = element as unknown as VideoElement;
        return media.readyState >= 2 && media.currentTime > 0.5;
      },
      await player.elementHandle(),
      { timeout: 20_000 },
    );
    const played = await player.evaluate((element: VideoElement) => ({
      width: element.videoWidth,
      height: element.videoHeight,
      error: element.error?.code ?? null,
    }));
    expect(played).toEqual({ width: 360, height: 640, error: null });
    await player.evaluate((element: VideoElement) => element.pause());
    expect(await ownerPage.evaluate('window.cspViolations')).toEqual([]);
    await shoot(ownerPage, 'player-owner');

    // Download: the original as uploaded, as an attachment; its signed URL serves ranges.
    const downloadLink = video.getByRole('link', { name: 'Download video' });
    const [download] = await Promise.all([
      ownerPage.waitForEvent('download'),
      downloadLink.click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.mp4$/);
    const downloaded = await readFile((await download.path())!);
    expect(downloaded.equals(original)).toBe(true);
    const ranged = await fetch((await downloadLink.getAttribute('href'))!, {
      headers: { range: 'bytes=0-1023' },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 0-1023/${original.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(original.subarray(0, 1024))).toBe(true);

    // The owner approves: the reward moves from the owner's hold to the challenged person.
    await ownerPage.getByRole('button', { name: 'Approve video' }).click();
    // The approval asks first, saying who gets how much (issue 22, point 2).
    await ownerPage
      .getByRole('dialog')
      .getByRole('button', { name: /^Yes, pay / })
      .click();
    await ownerPage.getByText('Completed', { exact: true }).first().waitFor();
    await walletsBecome(platform, [
      [owner, { availableAmount: FUNDS - REWARD, freezeAmount: 0 }],
      [challenged, { availableAmount: REWARD, freezeAmount: 0 }],
    ]);
    await shoot(ownerPage, 'approved-owner');

    // The challenged person's page in Dutch, after the approval.
    const dutch = await openChallenge(challenged, slug, 'nl');
    await dutch.getByRole('region', { name: 'Video' }).getByLabel('Bewijsvideo').waitFor();
    await shoot(dutch, 'nl-approved-challenged');
  }, 240_000);

  it('refuses a PNG named .mp4 in the dialog saying it is not a video, and the challenge stays accepted', async () => {
    const [owner, challenged] = await Promise.all([adult(FUNDS), adult()]);
    const { slug } = await challengeIn(platform, 'accepted', { owner, challenged });
    const page = await openChallenge(challenged, slug);
    await page.getByRole('button', { name: 'Upload video' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload your proof video' });
    await dialog.getByLabel('Video file').setInputFiles(fakeVideo);
    await dialog.getByRole('checkbox', { name: 'I confirm that this video is my own.' }).check();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByText('The upload did not work').waitFor({ timeout: 30_000 });
    // Named .mp4 but no video inside: the text says so (issue 22, point 14).
    await dialog.getByText(/is not a video: its name says mp4, mov or webm/).waitFor();
    await shoot(page, 'upload-invalid-file', { fullPage: false });
    // Nothing is processing; the person can pick another file.
    expect(await page.getByText('Your video is being processed').count()).toBe(0);
    expect(await dialog.getByLabel('Video file').isEnabled()).toBe(true);
    const response = await send(
      platform,
      'query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) { challenge { status challengeVideos { id } } } }',
      { input: { slug } },
      owner,
    );
    expect(response.data?.getChallengeBySlug.challenge).toEqual({
      status: 'accepted',
      challengeVideos: [],
    });
  }, 120_000);

  /** The proof phrase of an accepted challenge, as its owner sees it. */
  async function proofPhraseOf(owner: Person, slug: string): Promise<string> {
    const response = await send(
      platform,
      'query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) { challenge { proofPhrase } } }',
      { input: { slug } },
      owner,
    );
    const phrase = response.data?.getChallengeBySlug.challenge?.proofPhrase as string | undefined;
    if (!phrase) throw new Error(`no proof phrase: ${JSON.stringify(response)}`);
    return phrase;
  }
});
